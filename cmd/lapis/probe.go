package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/cblas"
	"github.com/lapis-go/lapis/internal/rt/coreset"
	"github.com/lapis-go/lapis/internal/scalar"
	"github.com/lapis-go/lapis/internal/test/guard"
	"github.com/lapis-go/lapis/lapack"
	"github.com/lapis-go/lapis/views"
)

// The guard-page probe: calls whose operands sit flush against an
// inaccessible page (internal/test/guard), so that reading one element past a
// vector faults. A fault in C kills the process, so the cases run in a
// child process (this binary again, told by the environment), which
// prints each case's index before running it; when the child dies, the
// parent reports the case it died in as CRASH and starts a new child
// after it.

const (
	envProbe     = "LAPIS_CHECK_PROBE"      // set: this process is a probe child
	envProbeFrom = "LAPIS_CHECK_PROBE_FROM" // the index of its first case
	envProbeDie  = "LAPIS_CHECK_PROBE_DIE"  // tests: the index of a case the child dies in
)

// probeCase is one guarded call: run computes a result over operands
// against guard pages, or (guarded false) over ordinary Go memory, the
// reference.
type probeCase struct {
	name string
	run  func(guarded bool) ([]complex128, error)
}

// fill sets v's elements to distinct values.
func fill[T views.Scalar](v views.View[T], seed int) views.View[T] {
	n := v.Len()
	shape := v.Shape()
	for i := 0; i < n; i++ {
		f := float64((i*7+seed)%13) - 6
		switch len(shape) {
		case 1:
			v.Set(fromC[T](complex(f, f/2+1)), i)
		case 2:
			v.Set(fromC[T](complex(f, f/2+1)), i%shape[0], i/shape[0])
		}
	}
	return v
}

// probeCases lists the guarded calls: the complex dots (OpenBLAS 0.3.21's
// cblas_[cz]dot[uc]_sub read one increment past a strided vector: lapis
// computes those in Go), the complex matrix-vector products (c/zgemv
// "N" and c/zhemv read past x or y: lapis hands them padded buffers), the
// real symmetric ones and syevd (over-reads of the x86-64-v1 kernel
// sets), on the library's path (ForceC), each with the guard page below
// and above.
func probeCases() []probeCase {
	var cs []probeCase
	for _, side := range guard.Sides {
		cs = append(cs, dotProbes[complex128](side)...)
		cs = append(cs, dotProbes[complex64](side)...)
		cs = append(cs, gemvProbes[complex128](side)...)
		cs = append(cs, gemvProbes[complex64](side)...)
		cs = append(cs, dotProbes[float64](side)...)
		cs = append(cs, symvProbes[float32](side)...)
		cs = append(cs, symvProbes[float64](side)...)
		cs = append(cs, syevdProbes[float32](side)...)
		cs = append(cs, syevdProbes[float64](side)...)
		cs = append(cs, syevdProbes[complex64](side)...)
	}
	return cs
}

// symvProbes are real symmetric matrix-vector products (OpenBLAS 0.3.21's
// ssymv reads past a and y, dsymv past y, on the x86-64-v1 kernel sets:
// lapis computes them in Go there), through Symv and Hemv, each
// triangle.
func symvProbes[T views.Scalar](side guard.Side) []probeCase {
	var cs []probeCase
	for _, s := range [][3]int{{9, 1, 1}, {6, 2, -1}, {33, -3, 2}} {
		n, incX, incY := s[0], s[1], s[2]
		for _, uplo := range []cblas.Uplo{cblas.Upper, cblas.Lower} {
			for _, hemv := range []bool{false, true} {
				name := map[bool]string{false: "symv", true: "hemv"}[hemv]
				cs = append(cs, probeCase{
					name: fmt.Sprintf("%s %s n=%d incx=%d incy=%d uplo=%v, guard %v", name, typeName[T](), n, incX, incY, uplo, side),
					run: func(g bool) ([]complex128, error) {
						a := arena(g, side)
						defer a.Free()
						A := fill(guard.View[T](a, "a", []int{n, n}, []int{1, n}), 3)
						x := fill(guard.View[T](a, "x", []int{n}, []int{incX}), 4)
						y := fill(guard.View[T](a, "y", []int{n}, []int{incY}), 5)
						f := cblas.Symv[T]
						if hemv {
							f = cblas.Hemv[T]
						}
						err := f(uplo, scalar.FromFloat[T](1), A, x, scalar.FromFloat[T](0.5), y, lapis.ForceC())
						return toC(logical(y)), err
					},
				})
			}
		}
	}
	return cs
}

// syevdProbes are symmetric (Hermitian) eigen-decompositions whose matrix
// ends at the guard page (ssyevd reads one element past it through ssymv
// on the x86-64-v1 sets: lapis gives it room there). The eigenvalues are
// compared: the vectors' signs are LAPACK's to choose.
func syevdProbes[T views.Scalar](side guard.Side) []probeCase {
	var cs []probeCase
	for _, n := range []int{16, 17, 33} {
		cs = append(cs, probeCase{
			name: fmt.Sprintf("syevd %s n=%d, guard %v", typeName[T](), n, side),
			run: func(g bool) ([]complex128, error) {
				a := arena(g, side)
				defer a.Free()
				A := guard.View[T](a, "a", []int{n, n}, []int{1, n})
				for j := 0; j < n; j++ {
					for i := 0; i < n; i++ {
						v := float64((i*7+j*7+3)%13) - 6 // symmetric in i, j
						if i == j {
							v += 4 * float64(n)
						}
						A.Set(scalar.FromFloat[T](v), i, j)
					}
				}
				w, _, err := lapack.EigSym(A)
				out := make([]complex128, len(w))
				for i, x := range w {
					out[i] = complex(float64(x), 0)
				}
				return out, err
			},
		})
	}
	return cs
}

// arena returns an arena on side, or nil (Go memory) when not guarded.
func arena(guarded bool, side guard.Side) *guard.Arena {
	if !guarded {
		return nil
	}
	return guard.NewArena(side)
}

func dotProbes[T views.Scalar](side guard.Side) []probeCase {
	var cs []probeCase
	for _, inc := range []int{2, -1, -3} {
		for _, conj := range []bool{false, true} {
			if conj && !views.IsComplex[T]() {
				continue
			}
			cs = append(cs, probeCase{
				name: fmt.Sprintf("dot %s n=5 incx=%d conj=%v, guard %v", typeName[T](), inc, conj, side),
				run: func(g bool) ([]complex128, error) {
					a := arena(g, side)
					defer a.Free()
					x := fill(guard.View[T](a, "x", []int{5}, []int{inc}), 1)
					y := fill(guard.View[T](a, "y", []int{5}, []int{1}), 2)
					if conj {
						x = x.Conj()
					}
					d, err := cblas.Dot(x, y, lapis.ForceC())
					return []complex128{scalar.Complex128(d)}, err
				},
			})
		}
	}
	return cs
}

func gemvProbes[T views.Scalar](side guard.Side) []probeCase {
	var cs []probeCase
	for _, s := range [][4]int{{2, 3, -1, 1}, {5, 5, -1, 2}, {5, 4, 2, -1}, {4, 4, 1, 1}} {
		m, n, incX, incY := s[0], s[1], s[2], s[3]
		cs = append(cs, probeCase{
			name: fmt.Sprintf("gemv %s m=%d n=%d incx=%d incy=%d, guard %v", typeName[T](), m, n, incX, incY, side),
			run: func(g bool) ([]complex128, error) {
				a := arena(g, side)
				defer a.Free()
				A := fill(guard.View[T](a, "a", []int{m, n}, []int{1, m}), 3)
				x := fill(guard.View[T](a, "x", []int{n}, []int{incX}), 4)
				y := fill(guard.View[T](a, "y", []int{m}, []int{incY}), 5)
				err := cblas.Gemv(scalar.FromFloat[T](1), A, x, scalar.FromFloat[T](0.5), y, lapis.ForceC())
				return toC(logical(y)), err
			},
		})
	}
	for _, s := range [][3]int{{4, 2, 1}, {5, 1, -1}} {
		n, incX, incY := s[0], s[1], s[2]
		cs = append(cs, probeCase{
			name: fmt.Sprintf("hemv %s n=%d incx=%d incy=%d, guard %v", typeName[T](), n, incX, incY, side),
			run: func(g bool) ([]complex128, error) {
				a := arena(g, side)
				defer a.Free()
				A := fill(guard.View[T](a, "a", []int{n, n}, []int{1, n}), 3)
				x := fill(guard.View[T](a, "x", []int{n}, []int{incX}), 4)
				y := fill(guard.View[T](a, "y", []int{n}, []int{incY}), 5)
				err := cblas.Hemv(cblas.Lower, scalar.FromFloat[T](1), A, x, scalar.FromFloat[T](0.5), y, lapis.ForceC())
				return toC(logical(y)), err
			},
		})
	}
	return cs
}

// probeChild runs the probe cases when this process is a probe child,
// then exits; otherwise it returns false.
func probeChild() bool {
	if os.Getenv(envProbe) == "" {
		return false
	}
	from, _ := strconv.Atoi(os.Getenv(envProbeFrom))
	debug.SetPanicOnFault(true) // faults in Go code are recovered and reported
	out := bufio.NewWriter(os.Stdout)
	for i, c := range probeCases() {
		if i < from {
			continue
		}
		fmt.Fprintf(out, "case %d\n", i)
		out.Flush()
		if os.Getenv(envProbeDie) == strconv.Itoa(i) {
			os.Exit(3) // a test hook: the child dies in case i
		}
		err := func() (err error) {
			defer func() {
				if p := recover(); p != nil {
					err = fmt.Errorf("fault in Go: %v", p)
				}
			}()
			got, err := c.run(true)
			if err != nil {
				return err
			}
			want, err := c.run(false)
			if err != nil {
				return err
			}
			for j := range want {
				if got[j] != want[j] {
					return fmt.Errorf("element %d is %v against guard pages, %v in Go memory", j, got[j], want[j])
				}
			}
			return nil
		}()
		if err != nil {
			fmt.Fprintf(out, "wrong %d %v\n", i, err)
		} else {
			fmt.Fprintf(out, "ok %d\n", i)
		}
		out.Flush()
	}
	os.Exit(0)
	return true
}

// guardCheck runs the probe cases in child processes.
func guardCheck(t *tally) {
	if !guard.Supported {
		t.status, t.detail = statusSkip, "guard pages need Linux"
		return
	}
	exe, err := os.Executable()
	if err != nil {
		t.fail("os.Executable", err)
		return
	}
	cases := probeCases()
	var crashes []string
	for from, runs := 0, 0; from < len(cases) && runs < 20; runs++ {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		cmd := exec.CommandContext(ctx, exe)
		cmd.Env = append(os.Environ(), envProbe+"=1", envProbeFrom+"="+strconv.Itoa(from))
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		runErr := cmd.Run()
		cancel()
		started := -1
		for _, line := range strings.Split(stdout.String(), "\n") {
			f := strings.SplitN(line, " ", 3)
			if len(f) < 2 {
				continue
			}
			i, err := strconv.Atoi(f[1])
			if err != nil || i < 0 || i >= len(cases) {
				continue
			}
			switch f[0] {
			case "case":
				started = i
			case "ok":
				t.cases++
				started = -1
			case "wrong":
				msg := ""
				if len(f) == 3 {
					msg = f[2]
				}
				t.fail(cases[i].name, errors.New(msg))
				started = -1
			}
		}
		if runErr == nil {
			break
		}
		if started < 0 { // died outside a case
			t.status, t.detail = statusCrash, fmt.Sprintf("probe child failed: %v: %s", runErr, firstLines(stderr.String(), 3))
			return
		}
		t.cases++
		crashes = append(crashes, fmt.Sprintf("%s: %s", cases[started].name, firstLines(stderr.String(), 2)))
		from = started + 1
	}
	if len(crashes) > 0 {
		t.status = statusCrash
		t.detail = fmt.Sprintf("%d of %d cases crashed: %s", len(crashes), t.cases, strings.Join(crashes, "; "))
		return
	}
	if t.worst <= 1 {
		t.detail = fmt.Sprintf("%d cases (complex dot, gemv, hemv; real symv and hemv; syevd; strided and negative increments, operands against PROT_NONE pages below and above) in a child process: no fault, same results as in Go memory", t.cases)
	}
	t.workaround = "complex dots with a non-unit increment are computed in Go (OpenBLAS 0.3.21's cblas_[cz]dot[uc]_sub read one increment past the vector); c/zgemv and c/zhemv get x and y in padded buffers"
	if k := lapis.KernelSet(); coreset.RealSymvOverRead(k.InUse) {
		t.workaround += fmt.Sprintf("; on %s, whose ssymv and dsymv read past a and y, real Symv and Hemv are computed in Go and ssyevd's and ssyevr's matrix gets room after it", k.InUse)
	}
}

// firstLines returns the first n non-empty lines of s, joined.
func firstLines(s string, n int) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
			if len(out) == n {
				break
			}
		}
	}
	return strings.Join(out, " | ")
}
