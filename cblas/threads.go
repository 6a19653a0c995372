package cblas

/*
#include "lapis_cblas.h"

// OpenBLAS's extensions are weak references, so that lapis also links
// against a CBLAS without them (BLIS, MKL, reference: -tags lapis_cgoflags);
// they are then NULL and the functions below say so.
#pragma weak openblas_set_num_threads
#pragma weak openblas_get_num_threads
#pragma weak openblas_get_config
#pragma weak openblas_get_corename
#pragma weak openblas_get_parallel

static int lapis_is_openblas(void) { return openblas_get_config != 0; }
static void lapis_set_threads(int n) { if (openblas_set_num_threads) openblas_set_num_threads(n); }
static int lapis_threads(void) { return openblas_get_num_threads ? openblas_get_num_threads() : 1; }
static const char *lapis_config(void) { return openblas_get_config ? openblas_get_config() : "unknown (not OpenBLAS)"; }
static const char *lapis_corename(void) { return openblas_get_corename ? openblas_get_corename() : "unknown"; }
static int lapis_parallel(void) { return openblas_get_parallel ? openblas_get_parallel() : -1; }
*/
import "C"

import (
	"fmt"
	"strings"

	"github.com/klauspost/cpuid/v2"

	"github.com/lapis-go/lapis/layout"
)

// SetThreads sets the number of threads OpenBLAS uses for one call (n >= 1;
// n <= 0 is an error matching layout.ErrShape). The setting is global to the
// process, like OpenBLAS's own. With a BLAS that is not OpenBLAS it returns
// an error matching ErrUnsupported.
func SetThreads(n int) error {
	if n < 1 {
		return layout.Errorf(layout.ErrShape, "cblas.SetThreads", "n", "%d threads; want at least 1", n)
	}
	if C.lapis_is_openblas() == 0 {
		return layout.Errorf(ErrUnsupported, "cblas.SetThreads", "n", "the linked BLAS is not OpenBLAS; set its threads its own way")
	}
	C.lapis_set_threads(C.int(n))
	return nil
}

// Threads returns the number of threads OpenBLAS uses for one call (1 when
// the library is not OpenBLAS).
func Threads() int { return int(C.lapis_threads()) }

// LibraryInfo describes the BLAS library lapis is linked against and the
// CPU it runs on.
type LibraryInfo struct {
	Config   string // openblas_get_config(), e.g. "OpenBLAS 0.3.21 NO_LAPACKE DYNAMIC_ARCH ..."
	Core     string // openblas_get_corename(), the kernel set in use
	Threads  int    // threads per call (Threads)
	Parallel int    // openblas_get_parallel(): 0 sequential, 1 pthreads, 2 OpenMP; -1 not OpenBLAS
	IntBits  int    // width of the BLAS integer lapis was compiled for
	// LibraryIntBits is the width the library itself reports (64 when its
	// config says USE64BITINT). lapis refuses to call a library whose
	// integer width differs from IntBits.
	LibraryIntBits int
	CPU            string   // brand name
	Features       []string // SIMD features that matter to BLAS kernels
	L1D, L2, L3    int      // data cache sizes in bytes (-1: unknown)
	CacheLine      int      // bytes
	LogicalCores   int
}

// Info returns facts about the BLAS library and the CPU.
func Info() LibraryInfo {
	info := LibraryInfo{
		Config:         C.GoString(C.lapis_config()),
		Core:           C.GoString(C.lapis_corename()),
		Threads:        Threads(),
		Parallel:       int(C.lapis_parallel()),
		IntBits:        IntBits,
		LibraryIntBits: libraryIntBits,
		CPU:            cpuid.CPU.BrandName,
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
}

// String formats the facts one per line.
func (i LibraryInfo) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "BLAS config:   %s\n", i.Config)
	fmt.Fprintf(&b, "BLAS core:     %s\n", i.Core)
	fmt.Fprintf(&b, "BLAS threads:  %d (parallel mode %d)\n", i.Threads, i.Parallel)
	fmt.Fprintf(&b, "BLAS integer:  %d-bit (library reports %d-bit)\n", i.IntBits, i.LibraryIntBits)
	fmt.Fprintf(&b, "CPU:           %s, %d logical cores\n", i.CPU, i.LogicalCores)
	fmt.Fprintf(&b, "CPU features:  %s\n", strings.Join(i.Features, " "))
	fmt.Fprintf(&b, "caches:        L1d %d, L2 %d, L3 %d bytes, line %d\n", i.L1D, i.L2, i.L3, i.CacheLine)
	return b.String()
}

// libraryIntBits is the integer width the linked library reports (OpenBLAS
// says so in its config; other libraries are taken to match the header);
// lapis compares it with the header it was compiled against.
var libraryIntBits = func() int {
	switch {
	case C.lapis_is_openblas() == 0:
		return IntBits
	case strings.Contains(C.GoString(C.lapis_config()), "USE64BITINT"):
		return 64
	}
	return 32
}()
