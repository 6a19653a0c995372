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
	"path/filepath"
	"strconv"
	"strings"

	"github.com/lapis-go/lapis/internal/rt/backend"
	"github.com/lapis-go/lapis/internal/rt/threads"
)

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
		l.Max = maxThreads(libraryConfig())
	}
	threads.Register(l)
	name, version := library()
	backend.Register(backend.Library{
		Name: name, Version: version, Path: blasPath(), Config: libraryConfig(), Core: corename(),
		Kernels: kernelChoice, Sets: kernelSets(), Parallel: int(C.lapis_parallel()),
		IntBits: IntBits, LibraryIntBits: libraryIntBits,
	})
}

// maxThreads is the MAX_THREADS=n an OpenBLAS config names (0: none).
func maxThreads(config string) int {
	for _, f := range strings.Fields(config) {
		if v, ok := strings.CutPrefix(f, "MAX_THREADS="); ok {
			if n, err := strconv.Atoi(v); err == nil && n > 0 {
				return n
			}
		}
	}
	return 0
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
// time (see lapis.LibraryInfo).
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
// (internal/rt/threads); the caller ends it when the library returns.
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
