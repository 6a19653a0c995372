package views

import "github.com/lapis-go/lapis/layout"

// copyElems is the plain element-by-element copy: an odometer over the
// index box in column-major order with incremental offsets. It is the
// reference the copy engine is tested against. Shapes are equal; memory is
// not shared.
func copyElems[T Scalar](dst, src View[T]) {
	n := dst.l.Len()
	if n == 0 {
		return
	}
	var cf func(T) T
	if dst.conj != src.conj {
		cf = conjFunc[T]()
	}
	rank := dst.l.Rank()
	var idx [layout.MaxRank]int
	do, so := dst.l.Offset(), src.l.Offset()
	for range n {
		x := src.data[so]
		if cf != nil {
			x = cf(x)
		}
		dst.data[do] = x
		// Advance the odometer: axis 0 fastest.
		for k := 0; k < rank; k++ {
			idx[k]++
			do += dst.l.Stride(k)
			so += src.l.Stride(k)
			if idx[k] < dst.l.Dim(k) {
				break
			}
			do -= idx[k] * dst.l.Stride(k)
			so -= idx[k] * src.l.Stride(k)
			idx[k] = 0
		}
	}
}
