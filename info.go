package lapis

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/klauspost/cpuid/v2"

	"github.com/lapis-go/lapis/internal/clib"
	"github.com/lapis-go/lapis/internal/rt/threads"
)

// LibraryInfo describes the BLAS/LAPACK library lapis is linked against
// and the CPU it runs on.
type LibraryInfo struct {
	// Library and Version name the BLAS library found at run time:
	// "OpenBLAS" and the version its config gives, "MKL" and its
	// version ("2020.0.4", from mkl_get_version), "BLIS" and
	// bli_info_get_version_str(), or "unknown" and "" for a CBLAS without
	// either extension (the netlib reference BLAS, say: Path tells which).
	Library, Version string
	// Path is the shared object cblas_dgemm was loaded from, with symbolic
	// links resolved (Debian's alternatives pick it); "" when unknown.
	Path string
	// Config is openblas_get_config(), e.g. "OpenBLAS 0.3.21 NO_LAPACKE
	// DYNAMIC_ARCH ..."; with MKL, mkl_get_version_string() and the MKL
	// layers loaded ("...; layers: libmkl_intel_lp64.so
	// libmkl_gnu_thread.so libmkl_core.so ...").
	Config string
	// Core is openblas_get_corename(), the kernel set in use; with MKL,
	// the code path it dispatches to (MKLVersion's Processor).
	Core string
	// Kernels says which set OpenBLAS chose, which lapis runs and why
	// (KernelSet).
	Kernels  KernelChoice
	Threads  int // the most threads a call may use (Threads)
	Parallel int // openblas_get_parallel(): 0 sequential, 1 pthreads, 2 OpenMP; -1 not OpenBLAS
	// Variant names Parallel: "serial", "pthreads", "OpenMP" or
	// "not OpenBLAS"; "per-thread" for MKL, whose count lapis sets for
	// the calling OS thread only (mkl_set_num_threads_local). Policy is
	// the thread policy in force (ThreadPolicy).
	Variant, Policy string
	IntBits         int // width of the BLAS integer lapis was compiled for
	// LibraryIntBits is the width the library itself reports (64 when its
	// config says USE64BITINT). lapis refuses to call a library whose
	// integer width differs from IntBits (ErrLibrary).
	LibraryIntBits int
	CPU            string   // brand name (arm64 CPUs report none: see cpuName)
	Features       []string // SIMD features that matter to BLAS kernels
	L1D, L2, L3    int      // data cache sizes in bytes (-1: unknown)
	CacheLine      int      // bytes
	LogicalCores   int
}

// cpuName is the CPU's brand name, or where the CPU reports none (arm64:
// lapis check said "on " and nothing more there) its architecture and
// the maker cpuid knows.
func cpuName() string {
	if n := strings.TrimSpace(cpuid.CPU.BrandName); n != "" {
		return n
	}
	if v := cpuid.CPU.VendorString; v != "" {
		return fmt.Sprintf("%s %s CPU (no brand name reported)", v, runtime.GOARCH)
	}
	return runtime.GOARCH + " CPU (no brand name reported)"
}

// Info returns facts about the linked library and the CPU.
func Info() LibraryInfo {
	info := fixedInfo()
	info.Threads, info.Variant, info.Policy = Threads(), threads.Lib().String(), ThreadPolicy()
	info.Features = slices.Clone(info.Features)
	return info
}

// fixedInfo is what Info reports that cannot change while the program
// runs (the library, its kernel set once chosen, the CPU), read once:
// finding the library's file resolves links on disk.
var fixedInfo = sync.OnceValue(func() LibraryInfo {
	name, version := clib.Library()
	info := LibraryInfo{
		Library:        name,
		Version:        version,
		Path:           clib.Path(),
		Config:         clib.Config(),
		Core:           clib.Core(),
		Kernels:        kernelChoice,
		Parallel:       clib.Parallel(),
		IntBits:        clib.IntBits,
		LibraryIntBits: clib.LibraryIntBits,
		CPU:            cpuName(),
		L1D:            cpuid.CPU.Cache.L1D,
		L2:             cpuid.CPU.Cache.L2,
		L3:             cpuid.CPU.Cache.L3,
		CacheLine:      cpuid.CPU.CacheLine,
		LogicalCores:   cpuid.CPU.LogicalCores,
	}
	for _, f := range []cpuid.FeatureID{cpuid.SSE2, cpuid.AVX, cpuid.FMA3, cpuid.AVX2, cpuid.AVX512F, cpuid.AVX512DQ, cpuid.AVX512VL, cpuid.ASIMD, cpuid.SVE} {
		if cpuid.CPU.Supports(f) {
			info.Features = append(info.Features, f.String())
		}
	}
	return info
})

// String formats the facts one per line.
func (i LibraryInfo) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "BLAS library:  %s %s (%s)\n", i.Library, i.Version, i.Path)
	fmt.Fprintf(&b, "BLAS config:   %s\n", i.Config)
	fmt.Fprintf(&b, "BLAS core:     %s (%s)\n", i.Core, i.Kernels.Reason)
	fmt.Fprintf(&b, "BLAS threads:  %s (%s, parallel mode %d)\n", i.Policy, i.Variant, i.Parallel)
	fmt.Fprintf(&b, "BLAS integer:  %d-bit (library reports %d-bit)\n", i.IntBits, i.LibraryIntBits)
	fmt.Fprintf(&b, "CPU:           %s, %d logical cores\n", i.CPU, i.LogicalCores)
	fmt.Fprintf(&b, "CPU features:  %s\n", strings.Join(i.Features, " "))
	fmt.Fprintf(&b, "caches:        L1d %d, L2 %d, L3 %d bytes, line %d\n", i.L1D, i.L2, i.L3, i.CacheLine)
	return b.String()
}

// KernelChoice describes the kernel set OpenBLAS runs on and how it was
// chosen (docs/kernels.md).
type KernelChoice struct {
	// Chosen is the set OpenBLAS picked for this CPU as it loaded, InUse
	// the set it runs now (openblas_get_corename()); they differ when
	// lapis switched. Both are "" when the library is not OpenBLAS.
	Chosen string `json:"chosen"`
	InUse  string `json:"in_use"`
	// Switched reports whether lapis moved OpenBLAS to another set.
	Switched bool `json:"switched"`
	// Reason says in one sentence why InUse is what it is, e.g.
	// "OpenBLAS 0.3.21 chose Prescott (x86-64-v1 kernels) for this
	// x86-64-v4 CPU (...); lapis chose SkylakeX".
	Reason string `json:"reason"`
	// CPULevel is the CPU's x86-64 level (1-4; 0 on other CPUs) and
	// InUseLevel the level InUse's kernels need (0 when unknown).
	CPULevel   int `json:"cpu_level"`
	InUseLevel int `json:"in_use_level"`
	// Setting is LAPIS_OPENBLAS_CORE's value at start ("" when unset).
	Setting string `json:"setting"`
}

// Below reports whether the set in use needs a lower x86-64 level than
// the CPU has: its BLAS runs slower than the CPU allows.
func (k KernelChoice) Below() bool { return k.InUseLevel > 0 && k.InUseLevel < k.CPULevel }

// KernelSet returns the kernel set in use and why. lapis decides it once,
// as the program starts (before any BLAS call from a lapis package), from
// the environment variable LAPIS_OPENBLAS_CORE:
//
//	unset   move OpenBLAS to the set for this CPU's x86-64 level when its
//	        own choice is of a lower level or has a known wrong-answer
//	        defect (SkylakeX for x86-64-v4, Haswell for v3, Sandybridge or
//	        Nehalem for v2), unless OPENBLAS_CORETYPE is set
//	auto    the same, even when OPENBLAS_CORETYPE is set
//	off     keep OpenBLAS's choice
//	<name>  run that set (Haswell, SkylakeX, ...; case-insensitive), if
//	        the library has it and the CPU can run it
//
// Other BLAS libraries and OpenBLAS builds without DYNAMIC_ARCH are left
// alone. The choice cannot change later: a switch while a call is in
// flight crashes OpenBLAS.
func KernelSet() KernelChoice { return kernelChoice }

// KernelSets returns the kernel sets the linked OpenBLAS has and this CPU
// can run, oldest first: the names LAPIS_OPENBLAS_CORE takes here. It is
// nil for other libraries, builds without DYNAMIC_ARCH and CPUs that are
// not x86-64.
func KernelSets() []string { return slices.Clone(kernelSets()) }
