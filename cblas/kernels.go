package cblas

/*
#cgo LDFLAGS: -ldl
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	"fmt"
	"os"
	"runtime"
	"strings"
	"unsafe"

	"github.com/klauspost/cpuid/v2"

	"github.com/lapis-go/lapis/internal/rt/backend"
	"github.com/lapis-go/lapis/internal/rt/coreset"
)

// kernelSets returns the kernel sets the linked OpenBLAS has and this CPU
// can run, oldest first (lapis.KernelSets).
func kernelSets() []string {
	name, _ := library()
	if name != "OpenBLAS" || C.lapis_core_switchable() == 0 || !strings.Contains(libraryConfig(), "DYNAMIC_ARCH") {
		return nil
	}
	cpu := coreset.ThisCPU(runtime.GOARCH)
	var sets []string
	for _, s := range coreset.Sets {
		if cpu.Runs(s) && C.lapis_core_present(cstr(s.Table)) != 0 {
			sets = append(sets, s.Name)
		}
	}
	return sets
}

// kernelChoice is decided in a package variable's initialisation, so
// that it runs before every init function of cblas and of the packages
// importing it.
var kernelChoice = chooseKernels(os.Getenv(coreset.EnvVar))

// realSymvOverRead is whether the set in use reads past real symv's
// operands: Symv (and the gonum adapter's Ssymv and Dsymv) compute in Go
// there, and package lapack gives real operands room after them.
var realSymvOverRead = coreset.RealSymvOverRead(kernelChoice.InUse)

// chooseKernels decides the kernel set and switches to it (lapis.KernelSet
// documents the rule).
func chooseKernels(setting string) backend.Kernels {
	name, ver := library()
	k := backend.Kernels{Setting: setting, CPULevel: cpuid.CPU.X64Level()}
	if name == "OpenBLAS" {
		k.Chosen = corename()
	}
	coretype, coretypeSet := os.LookupEnv("OPENBLAS_CORETYPE")
	switchable := C.lapis_core_switchable() != 0
	d := coreset.Decide(coreset.Input{
		Library: name, Version: ver, Config: libraryConfig(), Chosen: k.Chosen,
		CPU:     coreset.ThisCPU(runtime.GOARCH),
		Setting: setting, Coretype: coretype, CoretypeSet: coretypeSet,
		Present: func(s coreset.Set) bool {
			return switchable && C.lapis_core_present(cstr(s.Table)) != 0
		},
	})
	k.Reason = d.Reason
	if d.Target != "" {
		C.lapis_core_switch(cstr(d.Target))
		if got := corename(); got != d.Target {
			// The library did not take the name: back to its own choice.
			C.lapis_core_switch(cstr(k.Chosen))
			k.Reason = fmt.Sprintf("%s, but OpenBLAS answered %s to the switch; its choice %s kept", d.Reason, got, corename())
		}
	}
	if name == "OpenBLAS" {
		k.InUse = corename()
		k.Switched = k.InUse != k.Chosen
		if s, ok := coreset.Lookup(k.InUse); ok {
			k.InUseLevel = s.Level
		}
	}
	return k
}

// cstr returns s as a NUL-terminated C string in Go memory (for a call
// that does not keep it).
func cstr(s string) *C.char {
	b := append([]byte(s), 0)
	return (*C.char)(unsafe.Pointer(&b[0]))
}
