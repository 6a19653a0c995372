// Package fortran hands lapis views to user Fortran code without copying
// them whenever Fortran can address them as they are: legacy F77
// subroutines with explicit-shape arguments (a(lda, *), a(lda, n, *)) and
// modern bind(C) routines with assumed-shape or assumed-rank arguments
// (a(:,:,:), a(..)) through Fortran 2018 C descriptors.
//
// # Explicit-shape arguments
//
// Explicit(In(v) | Out(v) | InOut(v), call) calls call with an Array:
// the address of element (1, 1), the extents, the leading dimension, and
// the number of matrices of a batch:
//
//	view [M, N, B], strides [1, LD, LD*N]     ->  a(LD, N, B): one call
//	view [M, N, B], strides [1, LD, S > LD*N] ->  a(LD, N): one call per matrix
//	row-major, reversed, General, conjugated  ->  a compact copy (counted)
//
//	err := fortran.Explicit(fortran.InOut(v), func(a fortran.Array) {
//		C.scale2(C.int(a.Rows), C.int(a.Cols), (*C.double)(a.Ptr), C.int(a.LD))
//	})
//
// # Assumed-shape arguments (C descriptors)
//
// Call1 ... Call4 call a bind(C) routine taking 1 to 4 descriptors
// (void f(CFI_cdesc_t *, ...)). The descriptors are built in C, with the
// compiler's own ISO_Fortran_binding.h (their layout differs between
// gfortran, flang and ifx, so Go never mirrors it), on the C stack, in
// the same cgo call that calls the routine. Every view whose strides are
// nonzero and whose elements do not overlap goes with zero copies, as
// the descriptor of its element 0 with its extents, lower bounds 0 and
// dim[k].sm = stride[k] * elem_len:
//
//	compact column-major          what CFI_establish makes
//	slices, steps, reversed axes  what CFI_establish of the compact parent
//	(negative strides), batches   and CFI_section (lower, upper, stride)
//	                              make, member by member (tested)
//	permuted axes (a transpose,   the same fill: a section keeps the
//	a permuted General view)      parent's axis order, so the standard's
//	                              functions cannot express these
//
// The standard's route for sections (CFI_establish of the parent, then
// CFI_section) is not taken: it makes the same descriptor with three
// calls into the Fortran runtime instead of none, and needs the parent
// array worked out from the strides first (12% of the hand-off's time in
// a profile of an empty routine's call). The members are the standard's own
// (base_addr, elem_len, version, rank, attribute, type, dim), filled in C
// by name when the compiler's CFI_cdesc_t has no others (gfortran's,
// checked at compile time by its size); a descriptor with members of its
// own (flang's) is begun by CFI_establish, which knows them, and only
// dim[k].sm is set after it.
//
// Broadcast (stride 0) and other overlapping views (read-only: Out and
// InOut are errors, never handed over as writable) and lazily conjugated
// views are copied into compact scratch arrays. Describe makes the same
// descriptor in C memory, for routines with other arguments or that call
// back into Go; Done ends it.
//
// # Copies and strict mode
//
// Every copy goes through the views copy engine into a pooled buffer: it
// is loaded before the call for In and InOut, written back after it for
// Out and InOut, and counted in the statistics cblas and lapack count
// into (lapis.ReadStats().Copies). In strict mode (the lapis.Strict(true)
// option, or lapis.SetStrict(true) for the process) a copy is refused
// with an error matching lapis.ErrCopyRefused (lapis.ErrCopyRefused) that names
// the function, the argument and its layout.
//
// # Lifetime of memory handed over
//
// An argument (In, Out, InOut) is the address of the function's own copy
// of the view, its element type and intent; the call reads the view's
// extents and strides in place from that copy and C reads them from
// there too, so nothing is copied between the call site and the
// descriptor. The copy stays on the caller's stack where In, Out and
// InOut are inlined (they are small), so a call that copies no data
// allocates nothing (TestNoAllocs); an Arg stored for later, or made
// where the compiler does not inline, puts the copy on the heap (one
// allocation).
//
// Memory handed to Fortran is valid for the duration of the call only:
// Fortran must not keep Array.Ptr, a descriptor, or the address of any
// element (c_loc) after returning. Within that rule: Explicit passes
// Ptr as a plain cgo argument; Call1 ... Call4 hold the view's address in
// a descriptor on the C stack and drop it when the routine returns
// (nothing to pin); Describe's descriptor lives in C memory and holds a
// Go pointer, so the view's memory is pinned (runtime.Pinner) until Done.
// All three pass GOEXPERIMENT=cgocheck2.
//
// Fortran that keeps a pointer after returning (a module pointer set by
// one call and used by the next, asynchronous work) needs memory that
// outlives calls: NewC makes a CTensor, a tensor in C memory that is used
// wherever a views tensor is (it embeds one) and lives until Free.
//
// # Threads
//
// Each call is independent: several goroutines may call Fortran at once,
// if the Fortran code is reentrant. gfortran may make large local arrays
// of a procedure static unless it is RECURSIVE or compiled with
// -frecursive; cgo's allowlist for #cgo FFLAGS has no -frecursive, so
// mark the procedures RECURSIVE (as examples/fortran does) or build with
// CGO_FFLAGS=-frecursive in the environment.
//
// # Building
//
// cgo compiles .f90 files in a package directory with gfortran and links
// libgfortran. This package includes ISO_Fortran_binding.h, which gfortran
// installs in gcc's own include directory (gcc of the same version finds
// it); with another C compiler set
// CGO_CFLAGS=-I$(gfortran -print-file-name=include). The CFI functions
// come from libgfortran (-lgfortran); other compilers' runtimes are a
// build choice this package does not test.
package fortran
