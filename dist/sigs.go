package dist

/*
#include "lapis_dist.h"
*/
import "C"

import (
	"fmt"
	"strings"
)

// signalsAtInit is what MPI_Init changed in the process's signal handlers.
var signalsAtInit []SignalChange

// SignalChange is a signal whose handler MPI_Init (or the BLACS) replaced.
type SignalChange struct {
	Signal  int
	OnStack bool // the new handler has SA_ONSTACK, which Go needs
}

type sigState struct {
	handler uintptr
	flags   int
}

const maxSignal = 64

func readSignals() [maxSignal + 1]sigState {
	var s [maxSignal + 1]sigState
	for sig := 1; sig <= maxSignal; sig++ {
		var h C.ulong
		var f C.int
		if C.lapis_sigaction(C.int(sig), &h, &f) == 0 {
			s[sig] = sigState{uintptr(h), int(f)}
		}
	}
	return s
}

func diffSignals(before, after [maxSignal + 1]sigState) []SignalChange {
	var ch []SignalChange
	for sig := 1; sig <= maxSignal; sig++ {
		if before[sig].handler != after[sig].handler {
			ch = append(ch, SignalChange{Signal: sig, OnStack: after[sig].flags&C.SA_ONSTACK != 0})
		}
	}
	return ch
}

// SignalReport says which signal handlers MPI_Init and the BLACS replaced
// (none with Open MPI 4.1.4 and Go's handlers installed first: "none"),
// naming those without SA_ONSTACK, on which Go's runtime would crash.
func SignalReport() string {
	if len(signalsAtInit) == 0 {
		return "none"
	}
	var b strings.Builder
	for i, c := range signalsAtInit {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "signal %d", c.Signal)
		if !c.OnStack {
			b.WriteString(" (no SA_ONSTACK)")
		}
	}
	return b.String()
}
