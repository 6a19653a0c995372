package main

import (
	"bytes"
	"errors"
	"math"
	"os"
	"os/exec"
	"sync"
	"testing"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/lapack"
	"github.com/lapis-go/lapis/views"
)

// dense returns tridiag(-1, 2, -1) of order n as a tensor.
func dense(t *testing.T, n int) *views.Tensor[float64] {
	a, err := views.Zeros[float64](n, n)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		a.Set(2, i, i)
		if i > 0 {
			a.Set(-1, i, i-1)
			a.Set(-1, i-1, i)
		}
	}
	return a
}

// checkEigen checks d and z against LAPACK's dsyevd (lapack.EigSym) of
// the dense matrix and against 2 - 2 cos(k pi / (n+1)), and z's columns
// for A z = z diag(d) and unit length.
func checkEigen(t *testing.T, n int, d []float64, z *views.Tensor[float64]) {
	t.Helper()
	a := dense(t, n)
	defer a.Release()
	w, _, err := lapack.EigSym(a.View())
	if err != nil {
		t.Fatal(err)
	}
	const tol = 1e-12
	for k, l := range d {
		exact := 2 - 2*math.Cos(float64(k+1)*math.Pi/float64(n+1))
		if math.Abs(l-w[k]) > tol || math.Abs(l-exact) > tol {
			t.Errorf("n = %d: eigenvalue %d is %.17g; EigSym %.17g, exact %.17g", n, k+1, l, w[k], exact)
		}
		x := make([]float64, n)
		for i := range n {
			x[i] = z.At(i, k)
		}
		y := make([]float64, n)
		laplacian(y, x)
		res, norm := 0.0, 0.0
		for i := range n {
			res = max(res, math.Abs(y[i]-l*x[i]))
			norm += x[i] * x[i]
		}
		if res > 1e-10 || math.Abs(norm-1) > 1e-10 {
			t.Errorf("n = %d: eigenvector %d: |A z - d z| = %.3g, |z|^2 = %.17g", n, k+1, res, norm)
		}
	}
}

func TestSmallest(t *testing.T) {
	for _, c := range []struct{ n, nev int }{{30, 4}, {100, 4}, {200, 6}} {
		d, z, err := Smallest(c.n, c.nev)
		if err != nil {
			t.Fatal(err)
		}
		if len(d) != c.nev || z.Shape()[0] != c.n || z.Shape()[1] != c.nev {
			t.Fatalf("n = %d: %d eigenvalues, z %v", c.n, len(d), z.Shape())
		}
		checkEigen(t, c.n, d, z)
		z.Release()
	}
}

// TestRawAgrees runs the plain cgo version of the same solve. Not to the
// bit: ARPACK draws its starting vector (info = 0) from a random number
// seed it SAVEs, so each solve in a process starts elsewhere.
func TestRawAgrees(t *testing.T) {
	d, z, err := Smallest(100, 4)
	if err != nil {
		t.Fatal(err)
	}
	defer z.Release()
	rd, rz, err := smallestRaw(100, 4, laplacian)
	if err != nil {
		t.Fatal(err)
	}
	defer rz.Release()
	checkEigen(t, 100, rd, rz)
	for k := range d {
		if math.Abs(d[k]-rd[k]) > 1e-13 {
			t.Errorf("eigenvalue %d: fortran.ExplicitN %.17g, plain cgo %.17g", k+1, d[k], rd[k])
		}
	}
}

func TestSmallestErrors(t *testing.T) {
	for _, c := range []struct{ n, nev int }{{10, 0}, {10, 10}, {1 << 20, 4}} {
		if _, _, err := Smallest(c.n, c.nev); !errors.Is(err, lapis.ErrInvalid) {
			t.Errorf("Smallest(%d, %d): %v, want lapis.ErrInvalid", c.n, c.nev, err)
		}
	}
}

// baton makes two goroutines take turns: each runs until it passes the
// baton, then waits for it to come back (or for the other to finish).
type baton struct {
	mu   sync.Mutex
	cond *sync.Cond
	turn int
	done [2]bool
}

func (b *baton) wait(me int) {
	for b.turn != me && !b.done[1-me] {
		b.cond.Wait()
	}
}

func (b *baton) pass(me int) {
	b.mu.Lock()
	b.turn = 1 - me
	b.cond.Broadcast()
	b.wait(me)
	b.mu.Unlock()
}

func (b *baton) finish(me int) {
	b.mu.Lock()
	b.done[me], b.turn = true, 1-me
	b.cond.Broadcast()
	b.mu.Unlock()
}

// TestTwoSolvesAtOnce is a demonstration, documented in docs/fortran.md
// (the interleaved half in a child process of the test binary):
// ARPACK keeps the state of a solve between its reverse-communication
// calls in SAVEd variables, shared by the whole process, so two solves at
// once corrupt each other, silently. Two goroutines solve two problems of
// the same size (tridiag(-1, 2, -1) and 3 times it) without solveMu,
// taking turns at every matrix-vector product, so that their dsaupd calls
// interleave but never overlap in time: at least one of them gets wrong
// eigenvalues with no error. The same two solves, each holding solveMu
// for the whole solve, are right. (A lock around each dsaupd call would
// not help: the state lives between the calls.)
func TestTwoSolvesAtOnce(t *testing.T) {
	const n, nev = 100, 4
	ops := [2]func(y, x []float64){laplacian, func(y, x []float64) {
		laplacian(y, x)
		for i := range y {
			y[i] *= 3
		}
	}}
	scale := [2]float64{1, 3}
	wrong := func(d []float64, s float64) float64 {
		worst := 0.0
		for k, l := range d {
			worst = max(worst, math.Abs(l-s*(2-2*math.Cos(float64(k+1)*math.Pi/(n+1)))))
		}
		return worst
	}

	if os.Getenv(interleaveEnv) == "1" {
		interleaved(t, n, nev, ops, scale, wrong)
		return
	}
	// The interleaved solves run in a child process: ARPACK, running on
	// the other solve's SAVEd state, at times also writes outside its
	// buffers, corrupting Go's memory (a runtime fatal error, or a panic
	// anywhere after: one run in 40 in process, one in five alone), which
	// would take the test binary down with it.
	cmd := exec.Command(os.Args[0], "-test.run=^TestTwoSolvesAtOnce$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), interleaveEnv+"=1")
	out, err := cmd.CombinedOutput()
	switch {
	case err == nil:
		t.Logf("interleaved solves (child process):\n%s", out)
	case bytes.Contains(out, []byte("no longer shows the SAVEd state")):
		t.Errorf("interleaved solves (child process): %v\n%s", err, out)
	case bytes.Contains(out, []byte("panic:")) || bytes.Contains(out, []byte("fatal error")) ||
		bytes.Contains(out, []byte("unexpected signal")) || bytes.Contains(out, []byte("SIGSEGV")):
		t.Logf("the interleaved solves corrupted their process, which shows the SAVEd state too: %v\n%s", err, firstLines(out, 3))
	default:
		t.Errorf("interleaved solves (child process): %v\n%s", err, out)
	}

	// The same two solves, one at a time (solveMu held for each).
	var wg sync.WaitGroup
	for me := range 2 {
		wg.Go(func() {
			solveMu.Lock()
			defer solveMu.Unlock()
			d, z, err := smallest(n, nev, ops[me])
			if err != nil {
				t.Error(err)
				return
			}
			z.Release()
			if e := wrong(d, scale[me]); e > 1e-12 {
				t.Errorf("solve %d under the lock: off by %.3g", me, e)
			}
		})
	}
	wg.Wait()
}

// interleaveEnv marks the child process of TestTwoSolvesAtOnce that runs
// the two solves interleaved.
const interleaveEnv = "LAPIS_ARPACK_INTERLEAVE"

// interleaved runs two ARPACK solves step by step in turn on two
// goroutines and fails unless one of them gives silently wrong
// eigenvalues: the SAVEd state the demonstration is about.
func interleaved(t *testing.T, n, nev int, ops [2]func(y, x []float64), scale [2]float64, wrong func([]float64, float64) float64) {
	b := &baton{}
	b.cond = sync.NewCond(&b.mu)
	var got [2][]float64
	var errs [2]error
	var wg sync.WaitGroup
	for me := range 2 {
		wg.Go(func() {
			b.mu.Lock()
			b.wait(me)
			b.mu.Unlock()
			d, z, err := smallest(n, nev, func(y, x []float64) {
				ops[me](y, x)
				b.pass(me)
			})
			if z != nil {
				z.Release()
			}
			got[me], errs[me] = d, err
			b.finish(me)
		})
	}
	wg.Wait()
	bad := 0
	for me := range 2 {
		switch {
		case errs[me] != nil:
			t.Logf("interleaved solve %d: %v", me, errs[me])
		case wrong(got[me], scale[me]) > 1e-6:
			bad++
			t.Logf("interleaved solve %d: nil error, eigenvalues %.6g, off by up to %.3g", me, got[me], wrong(got[me], scale[me]))
		default:
			t.Logf("interleaved solve %d: right", me)
		}
	}
	if bad == 0 {
		t.Errorf("two interleaved ARPACK solves gave no silently wrong eigenvalues (errors %v): the demonstration no longer shows the SAVEd state", errs)
	}

}

// firstLines returns the first k lines of out.
func firstLines(out []byte, k int) []byte {
	lines := bytes.SplitN(out, []byte("\n"), k+1)
	return bytes.Join(lines[:min(k, len(lines))], []byte("\n"))
}
