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

// Where an empty view's descriptor points: CFI_establish needs an address
// to describe an array (a null one means "no object").
static double lapis_fempty[2];

// lapis_cfi_std has the members the standard gives CFI_cdesc_t before dim,
// and nothing else. When the compiler's CFI_cdesc_t is no larger (gfortran's
// has exactly these members), lapis_fdesc fills the members itself; a
// descriptor with members of its own (flang's, ifx's) is made by
// CFI_establish, which knows them.
struct lapis_cfi_std {
	void *base_addr;
	size_t elem_len;
	int version;
	CFI_rank_t rank;
	CFI_attribute_t attribute;
	CFI_type_t type;
};
enum { LAPIS_CFI_STD = sizeof(CFI_cdesc_t) == sizeof(struct lapis_cfi_std) };

// lapis_fdesc makes d (room for CFI_MAX_RANK dimensions) describe a view
// at base (its element 0; NULL when it has no elements) of kind kr & 3
// (0 float, 1 double, 2 float _Complex, 3 double _Complex) and rank
// kr >> 2, with extents ext and strides str in elements: the descriptor
// CFI_establish makes of a contiguous array of extents ext at base (lower
// bounds 0, attribute other), then dim[k].sm = str[k] * elem_len on every
// axis of extent > 1 (an axis of extent 1 keeps the contiguous byte
// stride, so that a view that is compact but for the stride of such an
// axis is contiguous for Fortran too). str NULL: contiguous (a copy).
//
// For slices, steps, reversed axes and batches this is the descriptor
// CFI_section makes of the view as a section of its parent array (tested
// member by member in fortran_test), made without describing the parent;
// it also describes permuted axes, which no section can. It returns the
// CFI error code (CFI_SUCCESS is 0).
static int lapis_fdesc(CFI_cdesc_t *d, void *base, int kr, const CFI_index_t *ext, const CFI_index_t *str) {
	static const CFI_type_t types[4] = {CFI_type_float, CFI_type_double, CFI_type_float_Complex, CFI_type_double_Complex};
	static const size_t sizes[4] = {sizeof(float), sizeof(double), 2 * sizeof(float), 2 * sizeof(double)};
	int rank = kr >> 2;
	if (base == NULL) {
		base = lapis_fempty;
	}
	if (!LAPIS_CFI_STD) {
		int rc = CFI_establish(d, base, CFI_attribute_other, types[kr & 3], 0, (CFI_rank_t)rank, ext);
		if (rc != CFI_SUCCESS || str == NULL) {
			return rc;
		}
		for (int k = 0; k < rank; k++) {
			if (ext[k] != 1) {
				d->dim[k].sm = str[k] * (CFI_index_t)d->elem_len;
			}
		}
		return CFI_SUCCESS;
	}
	size_t len = sizes[kr & 3];
	d->base_addr = base;
	d->elem_len = len;
	d->version = CFI_VERSION;
	d->rank = (CFI_rank_t)rank;
	d->attribute = CFI_attribute_other;
	d->type = types[kr & 3];
	CFI_index_t sm = (CFI_index_t)len; // CFI_establish's: contiguous
	for (int k = 0; k < rank; k++) {
		d->dim[k].lower_bound = 0;
		d->dim[k].extent = ext[k];
		d->dim[k].sm = str != NULL && ext[k] != 1 ? str[k] * (CFI_index_t)len : sm;
		sm *= ext[k];
	}
	return CFI_SUCCESS;
}

typedef CFI_CDESC_T(CFI_MAX_RANK) lapis_fdesc_t;

// lapis_fcall builds n (1 to 4) descriptors on its own stack, argument i
// described by (b_i, kr_i, e_i, s_i) as lapis_fdesc takes them, and calls
// fn with them: void fn(CFI_cdesc_t *, ...). The Go pointers are held
// only during the call. It returns 0, or (CFI error code) * 8 + the index
// of the argument that failed (fn is then not called).
// (fn is an integer and the bases char pointers so that cgo's pointer
// checks, which cost more than the descriptors, look at none of them: fn
// is C's, and the bases point to element data, which holds no pointers;
// the extents and strides are Go ints.)
static int lapis_fcall(int n, uintptr_t fn, int kr0, char *b0, const CFI_index_t *e0, const CFI_index_t *s0,
	int kr1, char *b1, const CFI_index_t *e1, const CFI_index_t *s1,
	int kr2, char *b2, const CFI_index_t *e2, const CFI_index_t *s2,
	int kr3, char *b3, const CFI_index_t *e3, const CFI_index_t *s3) {
	lapis_fdesc_t d[4];
	CFI_cdesc_t *d0 = (CFI_cdesc_t *)&d[0], *d1 = (CFI_cdesc_t *)&d[1], *d2 = (CFI_cdesc_t *)&d[2], *d3 = (CFI_cdesc_t *)&d[3];
	int rc = lapis_fdesc(d0, b0, kr0, e0, s0);
	if (rc != CFI_SUCCESS) {
		return rc * 8;
	}
	if (n > 1 && (rc = lapis_fdesc(d1, b1, kr1, e1, s1)) != CFI_SUCCESS) {
		return rc * 8 + 1;
	}
	if (n > 2 && (rc = lapis_fdesc(d2, b2, kr2, e2, s2)) != CFI_SUCCESS) {
		return rc * 8 + 2;
	}
	if (n > 3 && (rc = lapis_fdesc(d3, b3, kr3, e3, s3)) != CFI_SUCCESS) {
		return rc * 8 + 3;
	}
	switch (n) {
	case 1: ((void (*)(CFI_cdesc_t *))(void *)fn)(d0); break;
	case 2: ((void (*)(CFI_cdesc_t *, CFI_cdesc_t *))(void *)fn)(d0, d1); break;
	case 3: ((void (*)(CFI_cdesc_t *, CFI_cdesc_t *, CFI_cdesc_t *))(void *)fn)(d0, d1, d2); break;
	case 4: ((void (*)(CFI_cdesc_t *, CFI_cdesc_t *, CFI_cdesc_t *, CFI_cdesc_t *))(void *)fn)(d0, d1, d2, d3); break;
	}
	return 0;
}

// lapis_fcall1 is lapis_fcall for one descriptor, its result stored in
// *rc: a function returning void costs cgo two calls less (the wrapper cgo
// generates for a function with a result measures the stack around it).
static void lapis_fcall1(uintptr_t fn, int kr, char *b, const CFI_index_t *e, const CFI_index_t *s, int *rc) {
	lapis_fdesc_t d;
	int r = lapis_fdesc((CFI_cdesc_t *)&d, b, kr, e, s);
	if (r != CFI_SUCCESS) {
		*rc = r * 8;
		return;
	}
	*rc = 0;
	((void (*)(CFI_cdesc_t *))(void *)fn)((CFI_cdesc_t *)&d);
}

#endif
