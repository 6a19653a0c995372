package cblas

/*
#cgo LDFLAGS: -ldl
#define _GNU_SOURCE // dladdr
#include <dlfcn.h>
#include <pthread.h>
#include "lapis_cblas.h"

// OpenBLAS's extensions (thread control, config) and BLIS's version are
// looked up at run time with dlsym, not linked: lapis links against any
// CBLAS (-tags lapis_cgoflags with -lblas, say), and when Debian's
// libblas.so.3 alternative points at OpenBLAS the functions exist at run
// time although the library linked against (reference BLAS) has none.
// Absent, they are NULL and the functions below say so.
typedef struct {
	void (*set_threads)(int);
	int (*get_threads)(void);
	char *(*config)(void);
	char *(*corename)(void);
	int (*parallel)(void);
	const char *(*blis_version)(void);
	int (*omp_max_threads)(void);
} lapis_ext_t;

static lapis_ext_t lapis_ext_v;
static pthread_once_t lapis_ext_once = PTHREAD_ONCE_INIT;

static void lapis_ext_init(void) {
	lapis_ext_v.set_threads = (void (*)(int))dlsym(RTLD_DEFAULT, "openblas_set_num_threads");
	lapis_ext_v.get_threads = (int (*)(void))dlsym(RTLD_DEFAULT, "openblas_get_num_threads");
	lapis_ext_v.config = (char *(*)(void))dlsym(RTLD_DEFAULT, "openblas_get_config");
	lapis_ext_v.corename = (char *(*)(void))dlsym(RTLD_DEFAULT, "openblas_get_corename");
	lapis_ext_v.parallel = (int (*)(void))dlsym(RTLD_DEFAULT, "openblas_get_parallel");
	lapis_ext_v.blis_version = (const char *(*)(void))dlsym(RTLD_DEFAULT, "bli_info_get_version_str");
	lapis_ext_v.omp_max_threads = (int (*)(void))dlsym(RTLD_DEFAULT, "omp_get_max_threads");
}

static const lapis_ext_t *lapis_ext(void) {
	pthread_once(&lapis_ext_once, lapis_ext_init);
	return &lapis_ext_v;
}

static int lapis_is_openblas(void) { return lapis_ext()->config != 0; }
static void lapis_set_threads(int n) { if (lapis_ext()->set_threads) lapis_ext()->set_threads(n); }
static int lapis_threads(void) { return lapis_ext()->get_threads ? lapis_ext()->get_threads() : 1; }
static int lapis_has_thread_control(void) { return lapis_ext()->set_threads != 0 && lapis_ext()->get_threads != 0; }
static const char *lapis_config(void) { return lapis_ext()->config ? lapis_ext()->config() : "unknown (not OpenBLAS)"; }
static const char *lapis_corename(void) { return lapis_ext()->corename ? lapis_ext()->corename() : "unknown"; }
static int lapis_parallel(void) { return lapis_ext()->parallel ? lapis_ext()->parallel() : -1; }
static int lapis_omp_max_threads(void) { return lapis_ext()->omp_max_threads ? lapis_ext()->omp_max_threads() : -1; }
static const char *lapis_blis_version(void) { return lapis_ext()->blis_version ? lapis_ext()->blis_version() : ""; }

// lapis_blas_path is the file cblas_dgemm comes from, as the dynamic
// linker loaded it ("" when unknown): which library Debian's alternatives
// picked.
static const char *lapis_blas_path(void) {
	Dl_info di;
	void *f = dlsym(RTLD_DEFAULT, "cblas_dgemm");
	if (f == 0 || dladdr(f, &di) == 0 || di.dli_fname == 0) return "";
	return di.dli_fname;
}
*/
import "C"

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/klauspost/cpuid/v2"

	"github.com/lapis-go/lapis/internal/threads"
	"github.com/lapis-go/lapis/layout"
)

// AutoThreads, passed to SetThreads, returns to the default thread
// policy (see the package documentation, "Threads").
const AutoThreads = 0

func init() {
	v := threads.NotOpenBLAS
	switch C.lapis_parallel() {
	case 0:
		v = threads.Serial
	case 1:
		v = threads.Pthreads
	case 2:
		v = threads.OpenMP
	}
	l := threads.Library{Variant: v}
	if C.lapis_is_openblas() != 0 && C.lapis_has_thread_control() != 0 {
		l.Set = func(n int) { C.lapis_set_threads(C.int(n)) }
		l.Get = func() int { return int(C.lapis_threads()) }
	}
	threads.Register(l)
}

// SetThreads fixes the number of threads OpenBLAS uses for every call of
// cblas, lapack and batch at n (n >= 1), or returns to the default policy
// (n = AutoThreads): one thread unless a call is large, alone and finds
// idle cores, or is a level-3 call of at least 768^3 alone (see the
// package documentation). A negative n is an error
// matching layout.ErrShape. The setting is global to the process, like
// OpenBLAS's own; with a fixed n > 1, batch splits a batch over at most
// GOMAXPROCS/n workers. With a BLAS that is not OpenBLAS it returns an
// error matching ErrUnsupported.
func SetThreads(n int) error {
	if n < 0 {
		return layout.Errorf(layout.ErrShape, "cblas.SetThreads", "n", "%d threads; want at least 1, or AutoThreads", n)
	}
	if C.lapis_is_openblas() == 0 || C.lapis_has_thread_control() == 0 {
		return layout.Errorf(ErrUnsupported, "cblas.SetThreads", "n", "the linked BLAS is not OpenBLAS; set its threads its own way")
	}
	threads.SetFixed(n)
	return nil
}

// Threads returns the most threads OpenBLAS may use for one call: the
// count SetThreads fixed, or under the default policy the library's own
// count at start (OPENBLAS_NUM_THREADS, or the cores) capped by
// GOMAXPROCS. It is 1 when the library is not OpenBLAS or is serial.
func Threads() int { return threads.Max() }

// ThreadPolicy returns the policy in force, as Info reports it: "fixed n"
// or "auto up to n".
func ThreadPolicy() string {
	if f := threads.Fixed(); f > 0 {
		return fmt.Sprintf("fixed %d", f)
	}
	return fmt.Sprintf("auto up to %d", threads.Max())
}

// LibraryInfo describes the BLAS library lapis is linked against and the
// CPU it runs on.
type LibraryInfo struct {
	// Library and Version name the BLAS library found at run time:
	// "OpenBLAS" and the version its config gives, "BLIS" and
	// bli_info_get_version_str(), or "unknown" and "" for a CBLAS without
	// either extension (the netlib reference BLAS, say: Path tells which).
	Library, Version string
	// Path is the shared object cblas_dgemm was loaded from, with symbolic
	// links resolved (Debian's alternatives pick it); "" when unknown.
	Path   string
	Config string // openblas_get_config(), e.g. "OpenBLAS 0.3.21 NO_LAPACKE DYNAMIC_ARCH ..."
	Core   string // openblas_get_corename(), the kernel set in use
	// Kernels says which set OpenBLAS chose, which lapis runs and why
	// (KernelSet).
	Kernels  KernelChoice
	Threads  int // the most threads a call may use (Threads)
	Parallel int // openblas_get_parallel(): 0 sequential, 1 pthreads, 2 OpenMP; -1 not OpenBLAS
	// Variant names Parallel: "serial", "pthreads", "OpenMP" or
	// "not OpenBLAS"; Policy is the thread policy in force (ThreadPolicy).
	Variant, Policy string
	IntBits         int // width of the BLAS integer lapis was compiled for
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
	name, version := library()
	info := LibraryInfo{
		Library:        name,
		Version:        version,
		Path:           blasPath(),
		Config:         libraryConfig(),
		Core:           corename(),
		Kernels:        KernelSet(),
		Threads:        Threads(),
		Parallel:       int(C.lapis_parallel()),
		Variant:        threads.Lib().String(),
		Policy:         ThreadPolicy(),
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

// library returns the name and version of the BLAS library found at run
// time (see LibraryInfo).
func library() (name, version string) {
	if C.lapis_is_openblas() != 0 {
		// "OpenBLAS 0.3.21 NO_LAPACKE DYNAMIC_ARCH ..."
		f := strings.Fields(C.GoString(C.lapis_config()))
		if len(f) >= 2 && f[0] == "OpenBLAS" {
			return "OpenBLAS", f[1]
		}
		return "OpenBLAS", ""
	}
	if v := C.GoString(C.lapis_blis_version()); v != "" {
		return "BLIS", v
	}
	return "unknown", ""
}

// blasPath returns the file cblas_dgemm comes from, links resolved.
func blasPath() string {
	p := C.GoString(C.lapis_blas_path())
	if p == "" {
		return ""
	}
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

// level3 starts a level-3 call of m*n*k work under the thread policy
// (internal/threads); the caller ends it when the library returns.
func level3(m, n, k int) threads.Section {
	return threads.Begin(threads.Level3, float64(m)*float64(n)*float64(k))
}

// corename is openblas_get_corename(): the kernel set in use.
func corename() string { return C.GoString(C.lapis_corename()) }

// libraryConfig is openblas_get_config().
func libraryConfig() string { return C.GoString(C.lapis_config()) }

// libraryThreads is OpenBLAS's own process-wide count (tests).
func libraryThreads() int { return int(C.lapis_threads()) }

// setLibraryThreads sets OpenBLAS's count directly, as code calling
// openblas_set_num_threads outside lapis would (tests).
func setLibraryThreads(n int) { C.lapis_set_threads(C.int(n)) }

// ompMaxThreads is the calling OS thread's OpenMP count
// (omp_get_max_threads), -1 when no OpenMP runtime is loaded (tests).
func ompMaxThreads() int { return int(C.lapis_omp_max_threads()) }
