package clib

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


#include <stdio.h>
#include <stdlib.h>

// OpenBLAS's DYNAMIC_ARCH entry points, looked up at run time (absent in
// other libraries and in builds for one kernel set).
typedef void (*lapis_void_fn)(void);

static int lapis_core_switchable(void) {
	return dlsym(RTLD_DEFAULT, "gotoblas_dynamic_init") != 0 &&
		dlsym(RTLD_DEFAULT, "gotoblas_dynamic_quit") != 0 &&
		dlsym(RTLD_DEFAULT, "openblas_get_corename") != 0;
}

// lapis_core_present reports whether the library has the kernel table
// gotoblas_<table>.
static int lapis_core_present(const char *table) {
	char sym[64];
	snprintf(sym, sizeof sym, "gotoblas_%s", table);
	return dlsym(RTLD_DEFAULT, sym) != 0;
}

// lapis_core_switch makes OpenBLAS choose its kernels again with
// OPENBLAS_CORETYPE=name, then puts the environment back as it was.
// gotoblas_dynamic_quit forgets the table, gotoblas_dynamic_init picks
// one (reading the variable) and runs its init, which sets the block
// sizes. No BLAS call may be in flight: lapis calls it from cblas's
// package initialisation only.
static void lapis_core_switch(const char *name) {
	lapis_void_fn quit = (lapis_void_fn)dlsym(RTLD_DEFAULT, "gotoblas_dynamic_quit");
	lapis_void_fn init = (lapis_void_fn)dlsym(RTLD_DEFAULT, "gotoblas_dynamic_init");
	if (quit == 0 || init == 0) return;
	const char *old = getenv("OPENBLAS_CORETYPE");
	char *saved = old ? strdup(old) : 0;
	setenv("OPENBLAS_CORETYPE", name, 1);
	quit();
	init();
	if (saved) {
		setenv("OPENBLAS_CORETYPE", saved, 1);
		free(saved);
	} else {
		unsetenv("OPENBLAS_CORETYPE");
	}
}
*/
import "C"

import (
	"path/filepath"
	"strings"
	"unsafe"
)

// The library's facts, looked up at run time (its extensions are found
// with dlsym, so that lapis links against any CBLAS).

// Library returns the name and version of the BLAS library found at run
// time: "OpenBLAS" and the version its config gives, "MKL" and
// mkl_get_version's, "BLIS" and bli_info_get_version_str(), or "unknown"
// and "" (see lapis.LibraryInfo).
func Library() (name, version string) {
	if C.lapis_is_openblas() != 0 {
		// "OpenBLAS 0.3.21 NO_LAPACKE DYNAMIC_ARCH ..."
		f := strings.Fields(C.GoString(C.lapis_config()))
		if len(f) >= 2 && f[0] == "OpenBLAS" {
			return "OpenBLAS", f[1]
		}
		return "OpenBLAS", ""
	}
	if IsMKL() {
		v, _ := mklVersion()
		return "MKL", v
	}
	if v := C.GoString(C.lapis_blis_version()); v != "" {
		return "BLIS", v
	}
	return "unknown", ""
}

// IsOpenBLAS reports whether the library is OpenBLAS (it has
// openblas_get_config); IsMKL whether it is Intel MKL.
func IsOpenBLAS() bool { return C.lapis_is_openblas() != 0 }

// IsMKL reports whether the library is Intel MKL (MKL_Get_Version_String).
func IsMKL() bool { return C.lapis_is_mkl() != 0 }

// LibraryIntBits is the integer width the linked library reports
// (OpenBLAS says so in its config; other libraries are taken to match the
// header). Callers compare it with IntBits before every call.
var LibraryIntBits = func() int {
	switch {
	case !IsOpenBLAS():
		return IntBits
	case strings.Contains(C.GoString(C.lapis_config()), "USE64BITINT"):
		return 64
	}
	return 32
}()

// Path returns the file cblas_dgemm comes from, links resolved ("" when
// unknown): which library Debian's alternatives picked.
func Path() string {
	p := C.GoString(C.lapis_blas_path())
	if p == "" {
		return ""
	}
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

// Config is openblas_get_config(), or MKL's version string and the MKL
// layers loaded.
func Config() string {
	if IsMKL() {
		var buf, layers [256]C.char
		C.lapis_mkl_version_string(&buf[0], C.int(len(buf)))
		C.lapis_mkl_layers(&layers[0])
		return strings.TrimSpace(C.GoString(&buf[0])) + "; layers: " + C.GoString(&layers[0])
	}
	return C.GoString(C.lapis_config())
}

// Core is openblas_get_corename(), the kernel set in use; with MKL, the
// code path it dispatches to (MKLVersion's Processor).
func Core() string {
	if IsMKL() {
		_, cpu := mklVersion()
		return cpu
	}
	return C.GoString(C.lapis_corename())
}

// mklVersion is MKL's version ("2020.0.4") and the code path it
// dispatches to ("Intel(R) Advanced Vector Extensions 512 ...").
func mklVersion() (version, cpu string) {
	var v, p [256]C.char
	C.lapis_mkl_version(&v[0], C.int(len(v)), &p[0], C.int(len(p)))
	return C.GoString(&v[0]), C.GoString(&p[0])
}

// Parallel is openblas_get_parallel(): 0 sequential, 1 pthreads, 2
// OpenMP; -1 when the library is not OpenBLAS.
func Parallel() int { return int(C.lapis_parallel()) }

// Thread control.

// HasThreadControl reports whether OpenBLAS's openblas_set_num_threads
// and openblas_get_num_threads are there.
func HasThreadControl() bool { return IsOpenBLAS() && C.lapis_has_thread_control() != 0 }

// SetThreads is openblas_set_num_threads (process-wide; with OpenMP, the
// calling thread's count).
func SetThreads(n int) { C.lapis_set_threads(C.int(n)) }

// Threads is openblas_get_num_threads (1 when absent).
func Threads() int { return int(C.lapis_threads()) }

// MKLHasThreads reports whether MKL's per-thread count can be set.
func MKLHasThreads() bool { return IsMKL() && C.lapis_mkl_has_threads() != 0 }

// MKLSetLocal is mkl_set_num_threads_local: the calling OS thread's count
// (0 clears it), returning the setting it replaced (0: none).
func MKLSetLocal(n int) int { return int(C.lapis_mkl_set_local(C.int(n))) }

// MKLMaxThreads is mkl_get_max_threads(): the count a call from the
// calling OS thread would use.
func MKLMaxThreads() int { return int(C.lapis_mkl_max_threads()) }

// OMPMaxThreads is the calling OS thread's OpenMP count
// (omp_get_max_threads), -1 when no OpenMP runtime is loaded.
func OMPMaxThreads() int { return int(C.lapis_omp_max_threads()) }

// OpenBLAS's kernel sets (DYNAMIC_ARCH builds).

// CoreSwitchable reports whether the library can switch kernel sets.
func CoreSwitchable() bool { return C.lapis_core_switchable() != 0 }

// CorePresent reports whether the library has the kernel table
// gotoblas_<table>.
func CorePresent(table string) bool { return C.lapis_core_present(cstr(table)) != 0 }

// CoreSwitch makes OpenBLAS choose its kernels again as
// OPENBLAS_CORETYPE=name would, then puts the environment back. No BLAS
// call may be in flight: lapis calls it once, as the program starts
// (lapis.KernelSet).
func CoreSwitch(name string) { C.lapis_core_switch(cstr(name)) }

// cstr returns s as a NUL-terminated C string in Go memory (for a call
// that does not keep it).
func cstr(s string) *C.char {
	b := append([]byte(s), 0)
	return (*C.char)(unsafe.Pointer(&b[0]))
}
