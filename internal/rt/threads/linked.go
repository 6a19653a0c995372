package threads

import (
	"strconv"
	"strings"

	"github.com/lapis-go/lapis/internal/clib"
)

// The linked library's thread control is installed as the package is
// initialised, before any package that calls BLAS (they import this one).
func init() { install(linked()) }

// linked describes the linked library's thread control (clib).
func linked() Library {
	v := NotOpenBLAS
	switch clib.Parallel() {
	case 0:
		v = Serial
	case 1:
		v = Pthreads
	case 2:
		v = OpenMP
	}
	l := Library{Variant: v}
	switch {
	case clib.HasThreadControl():
		l.Set = clib.SetThreads
		l.Get = clib.Threads
		l.Max = maxThreads(clib.Config())
		if v == OpenMP {
			if !clib.GateOn() {
				// No OpenMP runtime to set a thread's count: leave the
				// library alone rather than race it.
				return Library{Variant: v}
			}
			l.Set, l.Raise, l.Lower = clib.FixThreads, clib.RaiseThreads, clib.LowerThreads
		}
	case clib.MKLHasThreads():
		// MKL: a count for the calling thread only; lapis never sets
		// its process-wide one (PerThread).
		l.Variant = PerThread
		l.SetLocal = clib.MKLSetLocal
		l.Get = clib.MKLMaxThreads
	}
	return l
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
