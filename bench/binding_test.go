package bench

import (
	"fmt"
	"testing"
)

// BenchmarkBinding measures the binding choice of package lapack: calling
// the Fortran symbol (impl=fortran, what lapack does) against LAPACKE's
// column-major _work function (impl=lapacke), both through one cgo call,
// on dpotrf of an identity matrix (restored by the factorisation itself:
// the Cholesky factor of I is I), small enough for call overhead to show.
//
//	go test -run '^$' -bench Binding -count 4 ./bench
func BenchmarkBinding(b *testing.B) {
	for _, n := range []int{2, 8, 64} {
		for _, impl := range []string{"fortran", "lapacke"} {
			b.Run(fmt.Sprintf("op=potrf/n=%d/impl=%s", n, impl), func(b *testing.B) {
				a := make([]float64, n*n)
				for i := range n {
					a[i*n+i] = 1
				}
				for b.Loop() {
					if info := potrfBinding(impl == "lapacke", n, a); info != 0 {
						b.Fatal(info)
					}
				}
			})
		}
	}
}

func TestBinding(t *testing.T) {
	for _, lapacke := range []bool{false, true} {
		a := []float64{4, 2, 2, 5}
		if info := potrfBinding(lapacke, 2, a); info != 0 || a[0] != 2 || a[1] != 1 || a[3] != 2 {
			t.Fatalf("lapacke=%v: info %d, a = %v", lapacke, info, a)
		}
	}
}
