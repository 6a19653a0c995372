package lapack

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/views"
)

// A SymDense [[4 2] [2 3]] built by SymOuterK stores its upper triangle;
// lapis's Cholesky and EigSym read the lower one by default. Through
// FromSymDense they read what gonum stored.
func TestFromSymDense(t *testing.T) {
	var s mat.SymDense
	s.SymOuterK(1, mat.NewDense(2, 2, []float64{2, 0, 1, 1.4142135623730951}))
	if s.At(0, 0) != 4 || math.Abs(s.At(0, 1)-2) > 1e-15 || math.Abs(s.At(1, 1)-3) > 1e-15 {
		t.Fatalf("SymOuterK gave %v", mat.Formatted(&s))
	}
	v := FromSymDense(&s)
	l, err := Cholesky(v)
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{2, 1, 0, math.Sqrt2} // column-major L
	for i, x := range l.Data() {
		if math.Abs(x-want[i]) > 1e-14 {
			t.Errorf("L = %v, want [[2 0] [1 1.4142]]", l.Data())
			break
		}
	}
	w, _, err := EigSym(v)
	if err != nil || math.Abs(w[0]-(3.5-math.Sqrt(4.25))) > 1e-14 || math.Abs(w[1]-(3.5+math.Sqrt(4.25))) > 1e-14 {
		t.Errorf("EigSym = %v, %v; want [1.438 5.562]", w, err)
	}
	// Writes through the view reach the SymDense.
	v.Set(5, 1, 0) // lower triangle of the view = gonum's (0, 1)
	if s.At(0, 1) != 5 {
		t.Errorf("write through the view: s(0, 1) = %v, want 5", s.At(0, 1))
	}
}

// lapis.UpperTriangle() reads the upper triangle of a plain view.
func TestTriangleOption(t *testing.T) {
	a := must(views.FromRows([][]float64{{4, 2}, {-99, 3}})) // lower triangle garbage
	l, err := Cholesky(a.View(), lapis.UpperTriangle())
	if err != nil || math.Abs(l.At(1, 0)-1) > 1e-15 || math.Abs(l.At(1, 1)-math.Sqrt2) > 1e-15 || l.At(0, 1) != 0 {
		t.Errorf("Cholesky(lapis.UpperTriangle()) = %v, %v; want [[2 0] [1 1.4142]]", l, err)
	}
	w, _, err := EigSym(a.View(), lapis.UpperTriangle())
	if err != nil || math.Abs(w[0]-(3.5-math.Sqrt(4.25))) > 1e-14 {
		t.Errorf("EigSym(lapis.UpperTriangle()) = %v, %v", w, err)
	}
	c := must(views.FromRows([][]complex128{{4, 2 + 1i}, {99, 3}}))
	lc, err := Cholesky(c.View(), lapis.UpperTriangle())
	if err != nil || lc.At(1, 0) != (2-1i)/2 {
		t.Errorf("complex Cholesky(lapis.UpperTriangle()): L(1,0) = %v, %v; want (1-0.5i)", lc.At(1, 0), err)
	}
}

// FromTriDense keeps the stored triangle and the unit diagonal.
func TestFromTriDense(t *testing.T) {
	tr := mat.NewTriDense(3, mat.Lower, []float64{2, 0, 0, 1, 3, 0, 4, 5, 6})
	v, uplo, diag := FromTriDense(tr)
	if uplo != Lower || diag != NonUnit {
		t.Fatalf("uplo %v diag %v", uplo, diag)
	}
	b := must(views.FromColMajor([]float64{2, 4, 15}, 3))
	if err := Trtrs(uplo, diag, v, b.View()); err != nil {
		t.Fatal(err)
	}
	// x: 2 x0 = 2 -> 1; x0 + 3 x1 = 4 -> 1; 4 + 5 + 6 x2 = 15 -> 1.
	for i := range 3 {
		if math.Abs(b.At(i)-1) > 1e-15 {
			t.Errorf("x = %v, want [1 1 1]", b.Data())
			break
		}
	}
}
