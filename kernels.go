package lapis

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync"

	"github.com/klauspost/cpuid/v2"

	"github.com/lapis-go/lapis/internal/clib"
	"github.com/lapis-go/lapis/internal/rt/coreset"
)

// kernelChoice is decided in a package variable's initialisation: the
// root package is initialised before every package that calls BLAS (they
// all import it), so no call is in flight when OpenBLAS switches.
var kernelChoice = chooseKernels(os.Getenv(coreset.EnvVar))

// chooseKernels decides the kernel set and switches to it (KernelSet
// documents the rule).
func chooseKernels(setting string) KernelChoice {
	name, ver := clib.Library()
	k := KernelChoice{Setting: setting, CPULevel: cpuid.CPU.X64Level()}
	if name == "OpenBLAS" {
		k.Chosen = clib.Core()
	}
	coretype, coretypeSet := os.LookupEnv("OPENBLAS_CORETYPE")
	switchable := clib.CoreSwitchable()
	d := coreset.Decide(coreset.Input{
		Library: name, Version: ver, Config: clib.Config(), Chosen: k.Chosen,
		CPU:     coreset.ThisCPU(runtime.GOARCH),
		Setting: setting, Coretype: coretype, CoretypeSet: coretypeSet,
		Present: func(s coreset.Set) bool { return switchable && clib.CorePresent(s.Table) },
	})
	k.Reason = d.Reason
	if d.Target != "" {
		clib.CoreSwitch(d.Target)
		if got := clib.Core(); got != d.Target {
			// The library did not take the name: back to its own choice.
			clib.CoreSwitch(k.Chosen)
			k.Reason = fmt.Sprintf("%s, but OpenBLAS answered %s to the switch; its choice %s kept", d.Reason, got, clib.Core())
		}
	}
	if name == "OpenBLAS" {
		k.InUse = clib.Core()
		k.Switched = k.InUse != k.Chosen
		if s, ok := coreset.Lookup(k.InUse); ok {
			k.InUseLevel = s.Level
		}
	}
	return k
}

// kernelSets returns the kernel sets the linked OpenBLAS has and this CPU
// can run, oldest first, looked up once.
var kernelSets = sync.OnceValue(func() []string {
	if name, _ := clib.Library(); name != "OpenBLAS" || !clib.CoreSwitchable() || !strings.Contains(clib.Config(), "DYNAMIC_ARCH") {
		return nil
	}
	cpu := coreset.ThisCPU(runtime.GOARCH)
	var sets []string
	for _, s := range coreset.Sets {
		if cpu.Runs(s) && clib.CorePresent(s.Table) {
			sets = append(sets, s.Name)
		}
	}
	return sets
})
