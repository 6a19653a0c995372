package clib

import "unsafe"

// Ptr returns the address of s[0] to hand to a function here, or nil for
// an empty slice (never &s[0] of an empty slice, which panics).
func Ptr[E any](s []E) unsafe.Pointer {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Pointer(&s[0])
}
