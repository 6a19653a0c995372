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

	"github.com/lapis-go/lapis/internal/coreset"
)

// KernelChoice describes the kernel set OpenBLAS runs on and how it was
// chosen (see the package documentation, "Kernel sets").
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
// as cblas is initialised (before any BLAS call of the process's Go
// packages that import lapis), from the environment variable
// LAPIS_OPENBLAS_CORE:
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

// KernelSets returns the kernel sets the linked OpenBLAS has and this
// CPU can run, oldest first: the names LAPIS_OPENBLAS_CORE takes here.
// It is nil for other libraries, builds without DYNAMIC_ARCH and CPUs
// that are not x86-64.
func KernelSets() []string {
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

// chooseKernels decides the kernel set and switches to it.
func chooseKernels(setting string) KernelChoice {
	name, ver := library()
	k := KernelChoice{Setting: setting, CPULevel: cpuid.CPU.X64Level()}
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
