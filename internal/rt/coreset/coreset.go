// Package coreset decides which of OpenBLAS's x86-64 kernel sets lapis
// runs on. It is pure Go: cblas asks it once, at package initialisation,
// and does the switch through cgo.
//
// A DYNAMIC_ARCH build of OpenBLAS carries one table of kernels per CPU
// family (Prescott, Nehalem, Sandybridge, Haswell, SkylakeX, ...) and
// picks one at load time from the CPU's vendor, family and model. CPUs
// newer than the release fall through its model table to an old set:
// OpenBLAS 0.3.20-0.3.24 give every Intel family-6 model from 0xB0 up
// (Raptor Lake, Emerald Rapids, Arrow Lake, ...) the SSE3 Prescott set,
// any Intel family above 15 Prescott in every release read, and 0.3.20
// gives Zen 5 the SSE Barcelona set. Those run 2-5x slower than the CPU
// allows and hit over-reads the newer sets do not have.
//
//	CPU level (cpuid)   x86-64-v4   x86-64-v3   x86-64-v2 (AVX)   x86-64-v2
//	lapis's candidate   SkylakeX    Haswell     Sandybridge       Nehalem
//
// Decide moves to the candidate of the CPU's level (or the highest one
// below it that the library has and the CPU can run) when OpenBLAS's own
// choice is of a lower level, or is a set with a known wrong-answer
// defect in that version (Defect). It leaves the choice alone for other
// libraries, builds without DYNAMIC_ARCH, CPUs that are not x86-64, when
// the user set OPENBLAS_CORETYPE, and when LAPIS_OPENBLAS_CORE says so.
package coreset

import (
	"fmt"
	"strings"

	"github.com/klauspost/cpuid/v2"

	"github.com/lapis-go/lapis/internal/rt/version"
)

// EnvVar is the variable that controls the choice: unset or "" (decide
// unless OPENBLAS_CORETYPE is set), "auto" (decide from the CPU even
// when OPENBLAS_CORETYPE is set), "off" (keep OpenBLAS's choice), or the
// name of a set (case-insensitive) to run that one.
const EnvVar = "LAPIS_OPENBLAS_CORE"

// Set is one of OpenBLAS's x86-64 kernel sets.
type Set struct {
	Name  string            // as openblas_get_corename() returns it
	Table string            // the library's table, gotoblas_<Table>
	Level int               // the x86-64 level its kernels need (1-4)
	Needs []cpuid.FeatureID // instructions beyond that level they use
}

// Sets lists the kernel sets of OpenBLAS's x86-64 DYNAMIC_ARCH builds
// (driver/others/dynamic.c), oldest first. Needs lists what running
// them showed (SIGILL on a Zen 5 without it): the Opteron sets use
// 3DNow! (femms), the Bulldozer family FMA4 (vfmaddpd).
var Sets = []Set{
	{"Prescott", "PRESCOTT", 1, nil},
	{"Core2", "CORE2", 1, nil},
	{"Penryn", "PENRYN", 1, nil},
	{"Dunnington", "DUNNINGTON", 1, nil},
	{"Atom", "ATOM", 1, nil},
	{"Nano", "NANO", 1, nil},
	{"Opteron", "OPTERON", 1, []cpuid.FeatureID{cpuid.AMD3DNOW}},
	{"Opteron_SSE3", "OPTERON_SSE3", 1, []cpuid.FeatureID{cpuid.AMD3DNOW}},
	{"Barcelona", "BARCELONA", 1, []cpuid.FeatureID{cpuid.SSE4A}},
	{"Bobcat", "BOBCAT", 1, nil},
	{"Nehalem", "NEHALEM", 2, nil},
	{"Sandybridge", "SANDYBRIDGE", 2, []cpuid.FeatureID{cpuid.AVX}},
	{"Bulldozer", "BULLDOZER", 2, []cpuid.FeatureID{cpuid.AVX, cpuid.FMA4}},
	{"Piledriver", "PILEDRIVER", 2, []cpuid.FeatureID{cpuid.AVX, cpuid.FMA4}},
	{"Steamroller", "STEAMROLLER", 2, []cpuid.FeatureID{cpuid.AVX, cpuid.FMA4}},
	{"Excavator", "EXCAVATOR", 3, []cpuid.FeatureID{cpuid.FMA4}},
	{"Haswell", "HASWELL", 3, nil},
	{"Zen", "ZEN", 3, nil},
	{"SkylakeX", "SKYLAKEX", 4, nil},
	{"Cooperlake", "COOPERLAKE", 4, []cpuid.FeatureID{cpuid.AVX512BF16}},
	{"SapphireRapids", "SAPPHIRERAPIDS", 4, []cpuid.FeatureID{cpuid.AVX512BF16, cpuid.AVX512FP16}},
}

// candidates are the sets Decide moves to, best first: each is the
// fastest set for its level on which lapis's test suite passes (measured:
// docs/kernels.md).
var candidates = []string{"SkylakeX", "Haswell", "Sandybridge", "Nehalem"}

// Lookup returns the set named name (case-insensitive).
func Lookup(name string) (Set, bool) {
	for _, s := range Sets {
		if strings.EqualFold(s.Name, name) {
			return s, true
		}
	}
	return Set{}, false
}

// Names returns the sets' names, for messages.
func Names() []string {
	n := make([]string, len(Sets))
	for i, s := range Sets {
		n[i] = s.Name
	}
	return n
}

// needs names what s's kernels need, for messages.
func (s Set) needs() string {
	n := []string{fmt.Sprintf("x86-64-v%d", s.Level)}
	for _, f := range s.Needs {
		n = append(n, f.String())
	}
	return strings.Join(n, " and ")
}

// CPU is what Decide needs to know of the processor.
type CPU struct {
	Arch     string // GOARCH
	Level    int    // x86-64 level, 0-4 (cpuid's X64Level)
	Features []cpuid.FeatureID
	Desc     string // vendor, family and model, for the reason
}

// ThisCPU describes the processor the process runs on.
func ThisCPU(arch string) CPU {
	c := CPU{Arch: arch, Level: cpuid.CPU.X64Level(),
		Desc: fmt.Sprintf("%s family %d model %d", cpuid.CPU.VendorString, cpuid.CPU.Family, cpuid.CPU.Model)}
	for _, s := range Sets {
		for _, f := range s.Needs {
			if cpuid.CPU.Supports(f) {
				c.Features = append(c.Features, f)
			}
		}
	}
	return c
}

func (c CPU) has(f cpuid.FeatureID) bool {
	for _, g := range c.Features {
		if g == f {
			return true
		}
	}
	return false
}

// Runs reports whether the CPU can execute s's kernels.
func (c CPU) Runs(s Set) bool {
	if c.Arch != "amd64" || s.Level > c.Level {
		return false
	}
	for _, f := range s.Needs {
		if !c.has(f) {
			return false
		}
	}
	return true
}

// Input is what Decide decides from.
type Input struct {
	Library, Version string // lapis.Info's, e.g. "OpenBLAS", "0.3.21"
	Config           string // openblas_get_config()
	Chosen           string // openblas_get_corename() at start: OpenBLAS's choice
	CPU              CPU
	// Setting is LAPIS_OPENBLAS_CORE's value ("" when unset).
	Setting string
	// Coretype is OPENBLAS_CORETYPE's value, CoretypeSet whether it is set.
	Coretype    string
	CoretypeSet bool
	// Present reports whether the library has the set's table and the
	// functions a switch needs (gotoblas_dynamic_init and _quit).
	Present func(Set) bool
}

// Decision is what Decide found.
type Decision struct {
	Target string // the set to switch to; "" keeps the library's choice
	Reason string // one sentence: what OpenBLAS chose and why lapis moved or did not
}

// Decide returns the kernel set lapis should run on (see the package
// documentation).
func Decide(in Input) Decision {
	keep := func(format string, args ...any) Decision { return Decision{Reason: fmt.Sprintf(format, args...)} }
	switch {
	case in.Library != "OpenBLAS":
		return keep("the BLAS library is %s, not OpenBLAS: its kernels are its own choice", in.Library)
	case !strings.Contains(" "+in.Config+" ", " DYNAMIC_ARCH "):
		return keep("OpenBLAS %s is built for one kernel set (no DYNAMIC_ARCH in its config)", in.Version)
	case in.CPU.Arch != "amd64":
		return keep("lapis chooses kernel sets on x86-64 only (this is %s)", in.CPU.Arch)
	}
	chosen, known := Lookup(in.Chosen)
	setting := strings.TrimSpace(in.Setting)
	switch {
	case strings.EqualFold(setting, "off"):
		return keep("%s=off keeps OpenBLAS's choice", EnvVar)
	case setting == "" && in.CoretypeSet:
		return keep("OPENBLAS_CORETYPE=%s is set: the user's choice is kept (%s=auto lets lapis decide anyway)", in.Coretype, EnvVar)
	case setting != "" && !strings.EqualFold(setting, "auto"):
		s, ok := Lookup(setting)
		switch {
		case !ok:
			return keep("%s=%s names no kernel set (want off, auto or one of %s); OpenBLAS's choice kept", EnvVar, setting, strings.Join(Names(), ", "))
		case !in.CPU.Runs(s):
			return keep("%s=%s asks for kernels this CPU cannot run (they need %s; it is x86-64-v%d); OpenBLAS's choice kept", EnvVar, s.Name, s.needs(), in.CPU.Level)
		case !in.Present(s):
			return keep("%s=%s: this OpenBLAS has no %s table (or cannot switch); its choice kept", EnvVar, s.Name, s.Name)
		case known && s.Name == chosen.Name:
			return keep("%s=%s is OpenBLAS's own choice", EnvVar, s.Name)
		}
		return Decision{Target: s.Name, Reason: fmt.Sprintf("%s=%s asked for it", EnvVar, s.Name)}
	}
	// Automatic.
	if !known {
		// A newer OpenBLAS names sets lapis's table lacks: likely newer
		// ones, which a candidate would not improve.
		return keep("OpenBLAS %s chose %q, a set lapis does not know: kept", in.Version, in.Chosen)
	}
	defect := Defect(in.Version, in.Chosen)
	if chosen.Level >= in.CPU.Level && defect == "" {
		return keep("OpenBLAS %s chose %s, which matches this x86-64-v%d CPU", in.Version, chosen.Name, in.CPU.Level)
	}
	for _, name := range candidates {
		s, _ := Lookup(name)
		if !in.CPU.Runs(s) || !in.Present(s) {
			continue
		}
		if s.Level <= chosen.Level && defect == "" {
			break // nothing better than the library's choice
		}
		why := fmt.Sprintf("OpenBLAS %s chose %s (x86-64-v%d kernels) for this x86-64-v%d CPU (%s)", in.Version, in.Chosen, chosen.Level, in.CPU.Level, in.CPU.Desc)
		if defect != "" {
			why = fmt.Sprintf("OpenBLAS %s chose %s, whose %s", in.Version, chosen.Name, defect)
		}
		return Decision{Target: s.Name, Reason: why + "; lapis chose " + s.Name}
	}
	return keep("OpenBLAS %s chose %s; no better set that this library has runs on this x86-64-v%d CPU", in.Version, in.Chosen, in.CPU.Level)
}

// Defect returns the known wrong-answer defect of set core in OpenBLAS
// version v that lapis cannot fully work around ("" when none): Decide
// moves away from such a set.
//
// Cooperlake and SapphireRapids before 0.3.25 run the generic C casum
// kernel, which reads a vector's tail from its start
// (OpenMathLib/OpenBLAS#4282, fixed in 0.3.25 by #4287): cblas computes
// complex64 Asum in Go there (CasumDefect), but LAPACK's own calls
// (complex64 ?latrs, so ?gecon and ?trcon) stay wrong.
func Defect(v, core string) string {
	if (core == "Cooperlake" || core == "SapphireRapids") && version.Less(v, "0.3.25") {
		return "casum kernel drops the tail of a vector inside LAPACK too (OpenMathLib/OpenBLAS#4282, fixed in 0.3.25)"
	}
	return ""
}

// CasumDefect returns why the complex64 ?asum of library (name, version
// v, kernel set core) adds the wrong elements, or "" when it does not:
// OpenBLAS before 0.3.25 runs its generic C casum kernel on Cooperlake and
// Sapphire Rapids cores, and that kernel reads the tail of a vector from
// its start instead of where the vector loop stopped
// (OpenMathLib/OpenBLAS#4282; those cores take the AVX-512 kernel since
// 0.3.25, #4287, and the C kernel is fixed in 0.3.26, #4326). LAPACK
// routines that call scasum inside OpenBLAS (complex64 ?latrs, so ?gecon
// and ?trcon) remain affected: Defect.
func CasumDefect(library, v, core string) string {
	if library == "OpenBLAS" && Defect(v, core) != "" {
		return fmt.Sprintf("OpenBLAS %s's casum kernel for %s drops the tail of the vector (OpenMathLib/OpenBLAS#4282, fixed in 0.3.25)", v, core)
	}
	return ""
}

// RealSymvOverRead reports whether set core's real symmetric
// matrix-vector kernels read one element past their operands: in
// OpenBLAS 0.3.21 ssymv reads past the end of a and y, dsymv past y, on
// every x86-64-v1 set (Prescott, Core2, Penryn, Dunnington, Atom, Nano,
// Barcelona, Bobcat; found with guard pages, not on Nehalem or later), and
// LAPACK's ssyevd and ssyevr do the same to their matrix through them.
// Read elsewhere than in lapis's buffers, such a read can fault.
func RealSymvOverRead(core string) bool {
	s, ok := Lookup(core)
	return ok && s.Level == 1
}

// AlignmentRounding reports whether set core's results can depend, in
// the last bits, on where operands and workspace lie: the SSE sets
// (x86-64-v1 and Nehalem) take unaligned heads of vectors apart, so in
// OpenBLAS 0.3.21 cgesdd on a batch's workspace and on a fresh one round
// differently there. The AVX sets gave the same bits in lapis's tests.
func AlignmentRounding(core string) bool {
	s, ok := Lookup(core)
	return ok && (s.Level == 1 || s.Name == "Nehalem")
}
