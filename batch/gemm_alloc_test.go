package batch_test

import (
	"testing"

	"github.com/lapis-go/lapis/batch"
	"github.com/lapis-go/lapis/views"
)

// TestGemmNoAlloc: a batched product that is not split across workers
// allocates nothing (its batch geometry lives on the stack), for the
// real and the complex types. (A broadcast operand still allocates: fold
// tries reshapes that fail and format their errors.)
func TestGemmNoAlloc(t *testing.T) {
	testGemmNoAlloc[float64](t)
	testGemmNoAlloc[complex64](t)
}

func testGemmNoAlloc[T views.Scalar](t *testing.T) {
	a, _ := views.Zeros[T](8, 8, 4, 2)
	b, _ := views.Zeros[T](8, 8, 4, 2)
	c, _ := views.Zeros[T](8, 8, 4, 2)
	at, _ := a.View().Transpose(0, 1)
	for _, x := range []struct {
		name    string
		a, b, c views.View[T]
	}{
		{"batch [8 8 4 2]", a.View(), b.View(), c.View()},
		{"a row-major", at, b.View(), c.View()},
	} {
		var err error
		n := testing.AllocsPerRun(20, func() { err = batch.Gemm(1, x.a, x.b, 0, x.c) })
		if err != nil {
			t.Fatalf("%T %s: %v", *new(T), x.name, err)
		}
		if n != 0 {
			t.Errorf("%T %s: %v allocations a call, want 0", *new(T), x.name, n)
		}
	}
}
