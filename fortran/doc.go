// Package fortran hands lapis views to user Fortran code without copying
// them whenever Fortran can address them as they are: legacy F77
// subroutines with explicit-shape arguments (a(lda, *), a(lda, n, *)) and
// modern bind(C) routines with assumed-shape or assumed-rank arguments
// (a(:,:,:), a(..)) through Fortran 2018 C descriptors.
//
// # Explicit-shape arguments
//
// Explicit(In(v) | Out(v) | InOut(v) | Slice(s), call) calls call with an
// Array: the address of element (1, 1), the extents, the leading
// dimension, and the number of matrices of a batch:
//
//	view [M, N, B], strides [1, LD, LD*N]     ->  a(LD, N, B): one call
//	view [M, N, B], strides [1, LD, S > LD*N] ->  a(LD, N): one call per matrix
//	row-major, reversed, General, conjugated  ->  a compact copy (counted)
//	Slice(s), s a []T of any Elem             ->  a(len(s)), in place
//
//	err := fortran.Explicit(fortran.InOut(v), func(a fortran.Array) {
//		m, n, lda := C.int(a.Rows), C.int(a.Cols), C.int(a.LD)
//		C.scale2_(&m, &n, (*C.double)(a.Float64()), &lda)
//	})
//
// ExplicitN does the same for several arguments at once, one call of one
// closure with an Array per argument, each argument named (Named) in its
// errors; a batch with gaps is copied there, so that the routine runs
// once. Array's address comes through the accessor of its element type
// (Float32, Float64, Complex64, Complex128, Int32, Int64, Logical), a
// typed Go pointer that converts to the C pointer of the same type
// without unsafe.Pointer ((*C.double)(a.Float64()), (*C.int)(a.Int32()));
// (*C.double)(a.Float32()) does not compile, and the accessor of another
// type panics, as a failed type assertion does. (cgo's C types belong to
// the package that imports "C", so this package cannot return them; the
// conversion is legal because C.double is float64 underneath, C.int
// int32, C.longlong int64.)
//
//	Fortran                   Go element     accessor     C
//	REAL / DOUBLE PRECISION   float32/64     Float32/64   float / double
//	COMPLEX / COMPLEX*16      complex64/128  Complex...   float/double _Complex
//	INTEGER (gfortran: 4 B)   int32          Int32        int
//	INTEGER*8                 int64          Int64        long long
//	LOGICAL (gfortran: 4 B)   Logical        Logical      int (0 / 1)
//
// # Scalars, characters and callbacks
//
// Fortran takes every argument by address. A scalar goes as the address
// of a Go variable of the C type (var n C.int; C.f_(&n)): cgo allows it,
// as the variable holds no Go pointers, and Fortran must not keep the
// address after returning (no F77 routine can). A "#cgo noescape f_"
// line keeps such variables on the stack. A Go int is not an INTEGER:
// (*C.int)(&i) of an int does not compile; convert (C.int(i)) after
// checking that it fits.
//
// gfortran passes the length of each CHARACTER argument hidden, after all
// the others, in their order, as a size_t (since gfortran 8; an int
// before): declare them in the C prototype and pass them,
// void f_(const char *which, int *n, size_t which_len), C.f_(&w[0], &n, 2)
// with w := [2]C.char{'S', 'A'}. A CHARACTER*(*) dummy reads the length;
// a CHARACTER*2 one ignores it, but the prototype must still have it.
//
// An EXTERNAL procedure argument is the address of a C function, called
// by Fortran with every argument by address. Write it in C, or export a
// Go function (//export) and pass its C name; a routine that calls back
// into Go needs a call without cgo's nocallback, so Call1 ... Call4 (made
// with nocallback) cannot run it: use Explicit, ExplicitN or Describe,
// whose C call is the caller's own.
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
// Fortran must not keep an Array's address, a descriptor, or the address
// of any element (c_loc) after returning. Within that rule: Explicit and
// ExplicitN pass the address as a plain cgo argument (valid for the
// whole closure, which may call several routines); Call1 ... Call4 hold the view's address in
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
// Neither helps a library that keeps state between calls in SAVEd
// variables (or COMMON blocks): those are static whatever the flags.
// ARPACK keeps a whole reverse-communication solve's state so (dsaupd is
// called once per matrix-vector product): two solves at once, from two
// goroutines or interleaved on one, silently give wrong eigenvalues
// (examples/arpack's TestTwoSolvesAtOnce shows it). Such a library needs
// the caller's lock, held for the whole solve, not for each call.
//
// # Aliasing
//
// Fortran forbids a routine's arguments to share memory when it writes
// either (F2018 15.5.2.13; gfortran's matmul zeroes its result before it
// reads an argument that aliases it), and a compiler may assume they do
// not. ExplicitN and Call1 ... Call4 refuse, with an error matching
// layout.ErrOverlap naming both, two arguments whose address ranges meet
// when one is Out or InOut; In arguments may share memory with each
// other. An Out or InOut view whose own elements overlap (a broadcast) is
// refused the same way: it is never handed to Fortran as writable. A
// compact copy made for a layout Fortran cannot take is the routine's
// only view of that argument, and is copied back once the call returns.
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
