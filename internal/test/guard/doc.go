// Package guard places test operands against inaccessible pages, so that a
// routine reading or writing even one element outside a view faults
// instead of silently touching the neighbouring memory (NaN padding, as
// in internal/test/testmat, catches stray writes but not stray reads).
//
// An operand gets exactly the elements its view reaches, in memory of its
// own (mmap, not the Go heap), with a PROT_NONE page on one side:
//
//	side High:                              side Low:
//	... | data ........ last| PROT_NONE |   | PROT_NONE |first ........ data | ...
//	                        ^ the view's highest element   ^ its lowest element
//
// so that an access one element past either extreme of the view faults.
// Place and View compute the layout (offset) that puts the extremes there,
// for any shape and strides, negative included; a nil *Arena gives the
// same layout over ordinary Go memory, the reference each case compares
// against (Twin).
//
// A fault kills the process when it happens in C (OpenBLAS), so cases run
// in a child process (Run): the test re-executes its own binary for one
// group of cases, the child prints each case's index before running it,
// and the parent reports the case the child died in, with the address and
// the operand it belongs to, then starts a new child after it. Faults in
// Go code (assembly kernels, unsafe loops) are recovered in the child
// (debug.SetPanicOnFault) and reported the same way.
//
// Only tests and `lapis check` (cmd/lapis) import this package. Guard
// pages need Linux; elsewhere Run skips. The package does not use cgo:
// mapped memory is not Go memory, so cgo's pointer checks (cgocheck2
// included) and the race detector leave it alone.
package guard
