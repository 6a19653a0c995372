// lapis_fortran.h: the C side of package fortran. It builds Fortran 2018
// C descriptors (CFI_cdesc_t) with the compiler's own ISO_Fortran_binding.h
// and calls bind(C) routines with them; Go never sees the descriptor's
// layout, which differs between gfortran, flang and ifx.
#ifndef LAPIS_FORTRAN_H
#define LAPIS_FORTRAN_H

#if defined(__has_include)
#if !__has_include(<ISO_Fortran_binding.h>)
#error "ISO_Fortran_binding.h not found: it comes with gfortran (Debian: apt-get install gfortran). With a C compiler other than the gcc of the same version, set CGO_CFLAGS=-I$(gfortran -print-file-name=include)"
#endif
#endif
#include <ISO_Fortran_binding.h>
#include <stddef.h>
#include <stdint.h>

// lapis_fspec describes one view, as the Go side read it from its layout
// (extents and strides in elements). mode says how the descriptor is made:
//   LAPIS_FILL:    CFI_establish of a contiguous array of extents ext at
//                  base, then dim[k].sm = str[k] * elem_len (axes in an
//                  order CFI_section cannot produce: permuted views; and
//                  views with no elements);
//   LAPIS_COMPACT: CFI_establish alone (the view is compact column-major);
//   LAPIS_SECTION: CFI_establish of the contiguous parent of extents ext
//                  at base (the view's lowest address), then
//                  CFI_section(lo, hi, st) of it: the standard's route,
//                  for slices, steps and reversed (negative-stride) axes.
enum { LAPIS_FILL, LAPIS_COMPACT, LAPIS_SECTION };

typedef struct {
	int kind, rank, mode; // kind: 0 float, 1 double, 2 float _Complex, 3 double _Complex
	CFI_index_t ext[CFI_MAX_RANK], str[CFI_MAX_RANK];
	CFI_index_t lo[CFI_MAX_RANK], hi[CFI_MAX_RANK], st[CFI_MAX_RANK];
} lapis_fspec;

// Where an empty view's descriptor points: CFI_establish needs an address
// to describe an array (a null one means "no object").
static double lapis_fempty[2];

// lapis_fdesc makes d (room for CFI_MAX_RANK dimensions) describe s at
// base. It returns the CFI error code (CFI_SUCCESS is 0).
static int lapis_fdesc(CFI_cdesc_t *d, void *base, const lapis_fspec *s) {
	static const CFI_type_t types[4] = {CFI_type_float, CFI_type_double, CFI_type_float_Complex, CFI_type_double_Complex};
	CFI_type_t t = types[s->kind & 3];
	if (base == NULL) {
		base = lapis_fempty;
	}
	if (s->mode == LAPIS_SECTION) {
		CFI_CDESC_T(CFI_MAX_RANK) parent;
		int rc = CFI_establish((CFI_cdesc_t *)&parent, base, CFI_attribute_other, t, 0, (CFI_rank_t)s->rank, s->ext);
		if (rc == CFI_SUCCESS) {
			rc = CFI_establish(d, NULL, CFI_attribute_other, t, 0, (CFI_rank_t)s->rank, NULL);
		}
		if (rc == CFI_SUCCESS) {
			rc = CFI_section(d, (CFI_cdesc_t *)&parent, s->lo, s->hi, s->st);
		}
		return rc;
	}
	int rc = CFI_establish(d, base, CFI_attribute_other, t, 0, (CFI_rank_t)s->rank, s->ext);
	if (rc != CFI_SUCCESS || s->mode == LAPIS_COMPACT) {
		return rc;
	}
	for (int k = 0; k < s->rank; k++) {
		d->dim[k].sm = s->str[k] * (CFI_index_t)d->elem_len;
	}
	return CFI_SUCCESS;
}

typedef CFI_CDESC_T(CFI_MAX_RANK) lapis_fdesc_t;

// lapis_fcall builds n (1 to 4) descriptors on its own stack and calls fn
// with them: void fn(CFI_cdesc_t *, ...). The Go pointers base0..3 are
// held only during the call. It returns 0, or (CFI error code) * 8 + the
// index of the argument that failed (fn is then not called).
// (fn is an integer and the bases char pointers so that cgo's pointer
// checks, which cost more than the descriptors, look at none of them: fn
// is C's, and the bases point to element data, which holds no pointers.)
static int lapis_fcall(int n, uintptr_t fn, const lapis_fspec *s, char *b0, char *b1, char *b2, char *b3) {
	lapis_fdesc_t d[4];
	void *b[4] = {b0, b1, b2, b3};
	for (int i = 0; i < n; i++) {
		int rc = lapis_fdesc((CFI_cdesc_t *)&d[i], b[i], &s[i]);
		if (rc != CFI_SUCCESS) {
			return rc * 8 + i;
		}
	}
	CFI_cdesc_t *d0 = (CFI_cdesc_t *)&d[0], *d1 = (CFI_cdesc_t *)&d[1], *d2 = (CFI_cdesc_t *)&d[2], *d3 = (CFI_cdesc_t *)&d[3];
	switch (n) {
	case 1: ((void (*)(CFI_cdesc_t *))(void *)fn)(d0); break;
	case 2: ((void (*)(CFI_cdesc_t *, CFI_cdesc_t *))(void *)fn)(d0, d1); break;
	case 3: ((void (*)(CFI_cdesc_t *, CFI_cdesc_t *, CFI_cdesc_t *))(void *)fn)(d0, d1, d2); break;
	case 4: ((void (*)(CFI_cdesc_t *, CFI_cdesc_t *, CFI_cdesc_t *, CFI_cdesc_t *))(void *)fn)(d0, d1, d2, d3); break;
	}
	return 0;
}

#endif
