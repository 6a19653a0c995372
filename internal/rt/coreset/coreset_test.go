package coreset

import (
	"strings"
	"testing"

	"github.com/klauspost/cpuid/v2"
)

const dynamic = "OpenBLAS 0.3.21 NO_LAPACKE DYNAMIC_ARCH NO_AFFINITY Prescott MAX_THREADS=64"

var (
	v4     = CPU{Arch: "amd64", Level: 4, Features: []cpuid.FeatureID{cpuid.AVX}, Desc: "GenuineIntel family 6 model 207"}
	v4bf16 = CPU{Arch: "amd64", Level: 4, Features: []cpuid.FeatureID{cpuid.AVX, cpuid.AVX512BF16}, Desc: "AuthenticAMD family 26 model 2"}
	v3     = CPU{Arch: "amd64", Level: 3, Features: []cpuid.FeatureID{cpuid.AVX}, Desc: "GenuineIntel family 6 model 183"}
	v2avx  = CPU{Arch: "amd64", Level: 2, Features: []cpuid.FeatureID{cpuid.AVX}}
	v2     = CPU{Arch: "amd64", Level: 2}
	v1     = CPU{Arch: "amd64", Level: 1}
	arm    = CPU{Arch: "arm64"}
)

func all(Set) bool { return true }

func without(names ...string) func(Set) bool {
	return func(s Set) bool {
		for _, n := range names {
			if s.Name == n {
				return false
			}
		}
		return true
	}
}

// TestDecide is the decision table: library, version, config, OpenBLAS's
// choice, CPU, the user's variables and what the library has, against the
// set lapis moves to ("" keeps the library's) and a phrase of the reason.
func TestDecide(t *testing.T) {
	for _, c := range []struct {
		name    string
		in      Input
		target  string
		because string
	}{
		{"Emerald Rapids on 0.3.21", Input{Library: "OpenBLAS", Version: "0.3.21", Config: dynamic, Chosen: "Prescott", CPU: v4, Present: all}, "SkylakeX", "chose Prescott (x86-64-v1 kernels) for this x86-64-v4 CPU (GenuineIntel family 6 model 207)"},
		{"Raptor Lake on 0.3.21", Input{Library: "OpenBLAS", Version: "0.3.21", Config: dynamic, Chosen: "Prescott", CPU: v3, Present: all}, "Haswell", "lapis chose Haswell"},
		{"Zen 5 on 0.3.20", Input{Library: "OpenBLAS", Version: "0.3.20", Config: dynamic, Chosen: "Barcelona", CPU: v4bf16, Present: all}, "SkylakeX", "chose Barcelona"},
		{"Zen 4 on Zen kernels", Input{Library: "OpenBLAS", Version: "0.3.21", Config: dynamic, Chosen: "Zen", CPU: v4, Present: all}, "SkylakeX", "x86-64-v3 kernels"},
		{"v4 matched", Input{Library: "OpenBLAS", Version: "0.3.21", Config: dynamic, Chosen: "SkylakeX", CPU: v4, Present: all}, "", "matches this x86-64-v4 CPU"},
		{"v3 matched", Input{Library: "OpenBLAS", Version: "0.3.21", Config: dynamic, Chosen: "Haswell", CPU: v3, Present: all}, "", "matches"},
		{"Zen on v3 kept", Input{Library: "OpenBLAS", Version: "0.3.21", Config: dynamic, Chosen: "Zen", CPU: v3, Present: all}, "", "matches"},
		{"Cooperlake casum defect", Input{Library: "OpenBLAS", Version: "0.3.21", Config: dynamic, Chosen: "Cooperlake", CPU: v4bf16, Present: all}, "SkylakeX", "casum kernel drops the tail"},
		{"Cooperlake fixed in 0.3.25", Input{Library: "OpenBLAS", Version: "0.3.25", Config: dynamic, Chosen: "Cooperlake", CPU: v4bf16, Present: all}, "", "matches"},
		{"SapphireRapids defect", Input{Library: "OpenBLAS", Version: "0.3.24", Config: dynamic, Chosen: "SapphireRapids", CPU: v4bf16, Present: all}, "SkylakeX", "casum"},
		{"no SkylakeX table (NO_AVX512)", Input{Library: "OpenBLAS", Version: "0.3.21", Config: dynamic, Chosen: "Prescott", CPU: v4, Present: without("SkylakeX")}, "Haswell", "lapis chose Haswell"},
		{"cannot switch at all", Input{Library: "OpenBLAS", Version: "0.3.21", Config: dynamic, Chosen: "Prescott", CPU: v4, Present: func(Set) bool { return false }}, "", "no better set"},
		{"v2 with AVX", Input{Library: "OpenBLAS", Version: "0.3.21", Config: dynamic, Chosen: "Prescott", CPU: v2avx, Present: all}, "Sandybridge", "Sandybridge"},
		{"v2 without AVX", Input{Library: "OpenBLAS", Version: "0.3.21", Config: dynamic, Chosen: "Prescott", CPU: v2, Present: all}, "Nehalem", "Nehalem"},
		{"v2 Nehalem kept", Input{Library: "OpenBLAS", Version: "0.3.21", Config: dynamic, Chosen: "Nehalem", CPU: v2avx, Present: all}, "", "matches"},
		{"v1 CPU", Input{Library: "OpenBLAS", Version: "0.3.21", Config: dynamic, Chosen: "Prescott", CPU: v1, Present: all}, "", "matches"},
		{"unknown choice", Input{Library: "OpenBLAS", Version: "0.3.30", Config: dynamic, Chosen: "Diamondrapids", CPU: v4, Present: all}, "", "a set lapis does not know: kept"},
		{"not OpenBLAS", Input{Library: "BLIS", Version: "0.9.0", CPU: v4, Present: all}, "", "not OpenBLAS"},
		{"reference BLAS", Input{Library: "unknown", CPU: v4, Present: all}, "", "not OpenBLAS"},
		{"single-target build", Input{Library: "OpenBLAS", Version: "0.3.21", Config: "OpenBLAS 0.3.21 NO_LAPACKE Prescott MAX_THREADS=64", Chosen: "Prescott", CPU: v4, Present: all}, "", "no DYNAMIC_ARCH"},
		{"arm64", Input{Library: "OpenBLAS", Version: "0.3.21", Config: dynamic, Chosen: "NEOVERSEN1", CPU: arm, Present: all}, "", "x86-64 only"},
		{"off", Input{Library: "OpenBLAS", Version: "0.3.21", Config: dynamic, Chosen: "Prescott", CPU: v4, Setting: "off", Present: all}, "", "=off keeps"},
		{"OFF any case", Input{Library: "OpenBLAS", Version: "0.3.21", Config: dynamic, Chosen: "Prescott", CPU: v4, Setting: "OFF", Present: all}, "", "=off keeps"},
		{"user's OPENBLAS_CORETYPE", Input{Library: "OpenBLAS", Version: "0.3.21", Config: dynamic, Chosen: "Prescott", CPU: v4, Coretype: "Prescott", CoretypeSet: true, Present: all}, "", "OPENBLAS_CORETYPE=Prescott is set"},
		{"empty OPENBLAS_CORETYPE still set", Input{Library: "OpenBLAS", Version: "0.3.21", Config: dynamic, Chosen: "Prescott", CPU: v4, CoretypeSet: true, Present: all}, "", "is set"},
		{"auto over OPENBLAS_CORETYPE", Input{Library: "OpenBLAS", Version: "0.3.21", Config: dynamic, Chosen: "Prescott", CPU: v4, Setting: "auto", Coretype: "Prescott", CoretypeSet: true, Present: all}, "SkylakeX", "lapis chose SkylakeX"},
		{"named set", Input{Library: "OpenBLAS", Version: "0.3.21", Config: dynamic, Chosen: "SkylakeX", CPU: v4, Setting: "haswell", Present: all}, "Haswell", "LAPIS_OPENBLAS_CORE=Haswell asked for it"},
		{"named set over OPENBLAS_CORETYPE", Input{Library: "OpenBLAS", Version: "0.3.21", Config: dynamic, Chosen: "Prescott", CPU: v4, Setting: "Zen", CoretypeSet: true, Coretype: "Prescott", Present: all}, "Zen", "asked for it"},
		{"named set already in use", Input{Library: "OpenBLAS", Version: "0.3.21", Config: dynamic, Chosen: "Haswell", CPU: v4, Setting: "Haswell", Present: all}, "", "OpenBLAS's own choice"},
		{"named set too new for the CPU", Input{Library: "OpenBLAS", Version: "0.3.21", Config: dynamic, Chosen: "Haswell", CPU: v3, Setting: "SkylakeX", Present: all}, "", "cannot run (they need x86-64-v4"},
		{"named set needing FMA4", Input{Library: "OpenBLAS", Version: "0.3.21", Config: dynamic, Chosen: "Haswell", CPU: v4, Setting: "Bulldozer", Present: all}, "", "FMA4"},
		{"named set absent", Input{Library: "OpenBLAS", Version: "0.3.21", Config: dynamic, Chosen: "Haswell", CPU: v4, Setting: "Zen", Present: without("Zen")}, "", "has no Zen table"},
		{"unknown name", Input{Library: "OpenBLAS", Version: "0.3.21", Config: dynamic, Chosen: "Haswell", CPU: v4, Setting: "Skylake", Present: all}, "", "names no kernel set"},
	} {
		d := Decide(c.in)
		if d.Target != c.target || !strings.Contains(d.Reason, c.because) {
			t.Errorf("%s: Decide = %q (%s); want %q, a reason with %q", c.name, d.Target, d.Reason, c.target, c.because)
		}
		if d.Target != "" {
			s, _ := Lookup(d.Target)
			if !c.in.CPU.Runs(s) {
				t.Errorf("%s: Decide chose %s, which this CPU cannot run", c.name, d.Target)
			}
		}
	}
}

// Every candidate is a set, and the table's names are unique and
// case-insensitively distinct.
func TestSets(t *testing.T) {
	seen := map[string]bool{}
	for _, s := range Sets {
		k := strings.ToLower(s.Name)
		if seen[k] || s.Level < 1 || s.Level > 4 || s.Table != strings.ToUpper(s.Name) {
			t.Errorf("set %+v: duplicate, bad level or table name", s)
		}
		seen[k] = true
	}
	for _, c := range candidates {
		if _, ok := Lookup(c); !ok {
			t.Errorf("candidate %s is not in Sets", c)
		}
	}
}

func TestDefects(t *testing.T) {
	for _, c := range []struct {
		core           string
		symv, rounding bool
	}{
		{"Prescott", true, true}, {"Core2", true, true}, {"Barcelona", true, true},
		{"Nehalem", false, true}, {"Sandybridge", false, false}, {"Haswell", false, false},
		{"SkylakeX", false, false}, {"unknown", false, false},
	} {
		if RealSymvOverRead(c.core) != c.symv || AlignmentRounding(c.core) != c.rounding {
			t.Errorf("%s: RealSymvOverRead %v, AlignmentRounding %v; want %v, %v", c.core, RealSymvOverRead(c.core), AlignmentRounding(c.core), c.symv, c.rounding)
		}
	}
}
