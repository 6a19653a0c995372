package cblas

/*
#cgo LDFLAGS: -ldl
#define _GNU_SOURCE // dladdr
#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include "lapis_cblas.h"

// OpenBLAS's extensions (thread control, config), Intel MKL's (version,
// per-thread count) and BLIS's version are looked up at run time with
// dlsym, not linked: lapis links against any
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
	void (*mkl_version_string)(char *, int);
	void (*mkl_version)(void *);
	int (*mkl_set_local)(int);
	int (*mkl_max_threads)(void);
} lapis_ext_t;

// lapis_mkl_version_t is MKL's MKLVersion (mkl_types.h), unchanged since
// MKL 10.
typedef struct {
	int major, minor, update;
	char *status, *build, *processor, *platform;
} lapis_mkl_version_t;

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
	// MKL's C entry points are the mixed-case names (mkl_service.h
	// #defines mkl_set_num_threads_local as MKL_Set_Num_Threads_Local);
	// the lower- and upper-case symbols are its Fortran interface, which
	// takes its arguments by reference (called with an int, it
	// dereferences it and crashes).
	lapis_ext_v.mkl_version_string = (void (*)(char *, int))dlsym(RTLD_DEFAULT, "MKL_Get_Version_String");
	lapis_ext_v.mkl_version = (void (*)(void *))dlsym(RTLD_DEFAULT, "MKL_Get_Version");
	lapis_ext_v.mkl_set_local = (int (*)(int))dlsym(RTLD_DEFAULT, "MKL_Set_Num_Threads_Local");
	lapis_ext_v.mkl_max_threads = (int (*)(void))dlsym(RTLD_DEFAULT, "MKL_Get_Max_Threads");
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

// MKL: found when it has MKL_Get_Version_String (every MKL since 10).
static int lapis_is_mkl(void) { return lapis_ext()->mkl_version_string != 0; }
static int lapis_mkl_has_threads(void) { return lapis_ext()->mkl_set_local != 0 && lapis_ext()->mkl_max_threads != 0; }
static int lapis_mkl_set_local(int n) { return lapis_ext()->mkl_set_local ? lapis_ext()->mkl_set_local(n) : 0; }
static int lapis_mkl_max_threads(void) { return lapis_ext()->mkl_max_threads ? lapis_ext()->mkl_max_threads() : 1; }
static void lapis_mkl_version_string(char *buf, int len) {
	buf[0] = 0;
	if (lapis_ext()->mkl_version_string) lapis_ext()->mkl_version_string(buf, len);
	buf[len - 1] = 0;
}
// lapis_mkl_layers appends to buf the base names of the MKL layers
// loaded in the process (libmkl_rt.so loads its interface, threading and
// core layers on first use; MKL_INTERFACE_LAYER and MKL_THREADING_LAYER
// choose them).
static int lapis_mkl_layer(struct dl_phdr_info *info, size_t size, void *data) {
	char *buf = data;
	const char *name = info->dlpi_name, *base;
	if (name == 0 || (base = strrchr(name, '/')) == 0) return 0;
	base++;
	if (strncmp(base, "libmkl_", 7) != 0 || strcmp(base, "libmkl_rt.so") == 0) return 0;
	size_t n = strlen(buf);
	if (n + strlen(base) + 2 < 256) snprintf(buf + n, 256 - n, "%s%s", n ? " " : "", base);
	return 0;
}
static void lapis_mkl_layers(char *buf) { buf[0] = 0; dl_iterate_phdr(lapis_mkl_layer, buf); }

// lapis_mkl_version writes "major.minor.update" and the code path MKL
// dispatches to (MKLVersion's Processor) into buf and cpu.
static void lapis_mkl_version(char *buf, int len, char *cpu, int cpulen) {
	lapis_mkl_version_t v = {0};
	buf[0] = cpu[0] = 0;
	if (!lapis_ext()->mkl_version) return;
	lapis_ext()->mkl_version(&v);
	snprintf(buf, len, "%d.%d.%d", v.major, v.minor, v.update);
	if (v.processor) snprintf(cpu, cpulen, "%s", v.processor);
}

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
	switch {
	case C.lapis_is_openblas() != 0 && C.lapis_has_thread_control() != 0:
		l.Set = func(n int) { C.lapis_set_threads(C.int(n)) }
		l.Get = func() int { return int(C.lapis_threads()) }
		l.Max = maxThreads(libraryConfig())
	case C.lapis_is_mkl() != 0 && C.lapis_mkl_has_threads() != 0:
		// MKL: a count for the calling thread only; lapis never sets
		// its process-wide one (internal/rt/threads, PerThread).
		l.Variant = threads.PerThread
		l.SetLocal = mklSetLocal
		l.Get = mklMaxThreads
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
	if C.lapis_is_mkl() != 0 {
		v, _ := mklVersion()
		return "MKL", v
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

// corename is openblas_get_corename(): the kernel set in use; with MKL,
// the code path it dispatches to (MKLVersion's Processor).
func corename() string {
	if C.lapis_is_mkl() != 0 {
		_, cpu := mklVersion()
		return cpu
	}
	return C.GoString(C.lapis_corename())
}

// libraryConfig is openblas_get_config(), or MKL's version string.
func libraryConfig() string {
	if C.lapis_is_mkl() != 0 {
		var buf, layers [256]C.char
		C.lapis_mkl_version_string(&buf[0], C.int(len(buf)))
		C.lapis_mkl_layers(&layers[0])
		return strings.TrimSpace(C.GoString(&buf[0])) + "; layers: " + C.GoString(&layers[0])
	}
	return C.GoString(C.lapis_config())
}

// mklVersion is MKL's version ("2020.0.4") and the code path it
// dispatches to ("Intel(R) Advanced Vector Extensions 512 ...").
func mklVersion() (version, cpu string) {
	var v, p [256]C.char
	C.lapis_mkl_version(&v[0], C.int(len(v)), &p[0], C.int(len(p)))
	return C.GoString(&v[0]), C.GoString(&p[0])
}

// mklSetLocal is mkl_set_num_threads_local: the calling OS thread's
// count (0 clears it), returning the setting it replaced (0: none).
func mklSetLocal(n int) int { return int(C.lapis_mkl_set_local(C.int(n))) }

// mklMaxThreads is mkl_get_max_threads(): the count a call from the
// calling OS thread would use.
func mklMaxThreads() int { return int(C.lapis_mkl_max_threads()) }

// libraryThreads is OpenBLAS's own process-wide count (tests).
func libraryThreads() int { return int(C.lapis_threads()) }

// setLibraryThreads sets OpenBLAS's count directly, as code calling
// openblas_set_num_threads outside lapis would (tests).
func setLibraryThreads(n int) { C.lapis_set_threads(C.int(n)) }

// ompMaxThreads is the calling OS thread's OpenMP count
// (omp_get_max_threads), -1 when no OpenMP runtime is loaded (tests).
func ompMaxThreads() int { return int(C.lapis_omp_max_threads()) }
