package views

import (
	"errors"
	"slices"
	"testing"

	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/blas/cblas128"
	"gonum.org/v1/gonum/blas/cblas64"
	"gonum.org/v1/gonum/mat"

	"github.com/lapis-go/lapis/layout"
)

func TestGonumZeroCopy(t *testing.T) {
	d := mat.NewDense(2, 3, []float64{1, 2, 3, 4, 5, 6})
	v := FromDense(d)
	if v.At(1, 2) != 6 || v.At(0, 1) != 2 || v.Layout().Class() != layout.RowMajorPacked {
		t.Fatalf("FromDense: %v", v)
	}
	v.Set(60, 1, 2)
	if d.At(1, 2) != 60 {
		t.Errorf("FromDense copied: write did not reach the Dense")
	}
	// A sub-matrix keeps gonum's stride: RowMajorStrided, still no copy.
	sub := d.Slice(0, 2, 1, 3).(*mat.Dense)
	sv := FromDense(sub)
	if sv.At(1, 1) != 60 || sv.Layout().Class() != layout.RowMajorStrided {
		t.Errorf("FromDense(slice): %v", sv)
	}
	c := mat.NewCDense(1, 2, []complex128{1i, 2})
	if FromCDense(c).At(0, 0) != 1i {
		t.Errorf("FromCDense")
	}
	g32 := blas32.General{Rows: 2, Cols: 2, Stride: 3, Data: []float32{1, 2, 0, 3, 4}}
	if v, err := FromGeneral32(g32); err != nil || v.At(1, 0) != 3 {
		t.Errorf("FromGeneral32: %v %v", v, err)
	}
	if v, err := FromCGeneral64(cblas64.General{Rows: 1, Cols: 1, Stride: 1, Data: []complex64{5i}}); err != nil || v.At(0, 0) != 5i {
		t.Errorf("FromCGeneral64: %v", err)
	}
	if v, err := FromCGeneral(cblas128.General{Rows: 1, Cols: 2, Stride: 2, Data: []complex128{1, 2i}}); err != nil || v.At(0, 1) != 2i {
		t.Errorf("FromCGeneral: %v", err)
	}
}

func TestGonumBadGeneral(t *testing.T) {
	tests := []struct {
		g    blas64.General
		want error
	}{
		{blas64.General{Rows: 2, Cols: 3, Stride: 2, Data: make([]float64, 6)}, layout.ErrShape},
		{blas64.General{Rows: 2, Cols: 3, Stride: 3, Data: make([]float64, 5)}, layout.ErrBounds},
		{blas64.General{Rows: -1, Cols: 3, Stride: 3}, layout.ErrShape},
	}
	for _, tc := range tests {
		if _, err := FromGeneral(tc.g); !errors.Is(err, tc.want) {
			t.Errorf("FromGeneral(%+v): %v, want %v", tc.g, err, tc.want)
		}
	}
	if v, err := FromGeneral(blas64.General{Rows: 0, Cols: 0, Stride: 1}); err != nil || v.Len() != 0 {
		t.Errorf("empty General: %v", err)
	}
}

func TestToGonum(t *testing.T) {
	a := must(FromRowMajor([]float64{1, 2, 3, 4, 5, 6}, 2, 3))
	d, err := ToDense(a.View())
	if err != nil || !mat.Equal(d, mat.NewDense(2, 3, []float64{1, 2, 3, 4, 5, 6})) {
		t.Fatalf("ToDense = %v, %v", mat.Formatted(d), err)
	}
	dt, _ := ToDense(a.View().T())
	if !mat.Equal(dt, d.T()) {
		t.Errorf("ToDense(T) = %v", mat.Formatted(dt))
	}
	if e, err := ToDense(must(Zeros[float64](0, 3)).View()); err != nil || !e.IsEmpty() {
		t.Errorf("empty ToDense: %v", err)
	}
	if _, err := ToDense(must(Zeros[float64](2, 2, 2)).View()); !errors.Is(err, layout.ErrShape) {
		t.Errorf("rank-3 ToDense: %v", err)
	}
	z := must(FromRowMajor([]complex128{1, 2i, 3, 4i}, 2, 2))
	cd, err := ToCDense(z.View().H())
	if err != nil || cd.At(1, 0) != -2i || cd.At(0, 1) != 3 {
		t.Errorf("ToCDense(H) = %v, %v", cd, err)
	}
	g, err := ToGeneral32(must(FromRowMajor([]float32{1, 2, 3, 4}, 2, 2)).View())
	if err != nil || !slices.Equal(g.Data, []float32{1, 2, 3, 4}) || g.Stride != 2 {
		t.Errorf("ToGeneral32 = %+v, %v", g, err)
	}
	g64, err := ToCGeneral64(must(FromColMajor([]complex64{1, 2, 3, 4}, 2, 2)).View())
	if err != nil || !slices.Equal(g64.Data, []complex64{1, 3, 2, 4}) {
		t.Errorf("ToCGeneral64 = %+v, %v", g64, err)
	}
	// Round trip gonum -> lapis -> gonum.
	back, _ := ToDense(FromDense(d))
	if !mat.Equal(back, d) {
		t.Errorf("round trip")
	}
}

func TestGonumEmpty(t *testing.T) {
	v := FromDense(&mat.Dense{})
	if v.Len() != 0 {
		t.Errorf("FromDense(empty) = %v", v)
	}
	e, err := ToDense(must(Zeros[float64](0, 2)).View())
	if err != nil || FromDense(e).Len() != 0 {
		t.Errorf("round trip of an empty matrix: %v", err)
	}
}
