package einsum

import (
	"encoding/hex"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	tm "github.com/lapis-go/lapis/internal/test/testmat"

	"github.com/lapis-go/lapis/views"
)

// randCase is a contraction drawn from bytes: 2-4 operands of rank 0-3
// over the labels a-e (repeats within an operand allowed: diagonals),
// extents 0-3 per label, an operand axis of extent 1 now and then (it
// repeats), "..." now and then (0-2 axes per operand, by the batch rule),
// an explicit or implicit result, a layout class per operand and for dst,
// and an element type.
type randCase struct {
	spec    string
	shapes  [][]int
	classes []class
	dst     class
	typ     int // 0 float32, 1 float64, 2 complex64, 3 complex128
	seed    uint64
}

// bytesSrc hands out the bytes as small numbers; 0 past the end.
type bytesSrc struct {
	b []byte
	i int
}

func (s *bytesSrc) next(n int) int {
	if s.i >= len(s.b) {
		return 0
	}
	s.i++
	return int(s.b[s.i-1]) % n
}

func decodeCase(data []byte) randCase {
	s := &bytesSrc{b: data}
	const alphabet = "abcde"
	var c randCase
	c.typ = s.next(4)
	nops := 2 + s.next(3)
	var ext [len(alphabet)]int
	for i := range ext {
		ext[i] = [...]int{0, 1, 2, 3, 2, 3, 3, 2}[s.next(8)] // 0 and 1 less often
	}
	ell := s.next(4) == 0
	ellExt := [2]int{1 + s.next(3), s.next(4)}
	used := map[byte]bool{}
	terms := make([]string, nops)
	for k := range nops {
		rank := s.next(4)
		var term strings.Builder
		var shape []int
		own := map[byte]int{} // this operand's extent per label (diagonals need one)
		for range rank {
			l := alphabet[s.next(len(alphabet))]
			used[l] = true
			d, seen := own[l]
			if !seen {
				d = ext[l-'a']
				if s.next(4) == 0 {
					d = 1 // repeats against the others' extent
				}
				own[l] = d
			}
			term.WriteByte(l)
			shape = append(shape, d)
		}
		t := term.String()
		if ell {
			ne := s.next(3) // axes "..." stands for here
			var es []int
			for j := range ne {
				d := ellExt[j]
				if s.next(4) == 0 {
					d = 1
				}
				es = append(es, d)
			}
			at := s.next(len(t) + 1)
			t = t[:at] + "..." + t[at:]
			shape = slices.Insert(shape, at, es...)
		}
		terms[k] = t
		c.shapes = append(c.shapes, shape)
		c.classes = append(c.classes, class(s.next(int(nClasses))))
	}
	c.spec = strings.Join(terms, ",")
	if s.next(3) != 0 { // explicit result: some of the labels, in some order
		var pool []byte
		for i := range len(alphabet) {
			if used[alphabet[i]] {
				pool = append(pool, alphabet[i])
			}
		}
		var out []byte
		for len(pool) > 0 && s.next(4) != 0 {
			i := s.next(len(pool))
			out = append(out, pool[i])
			pool = slices.Delete(pool, i, i+1)
		}
		o := string(out)
		if ell {
			at := s.next(len(o) + 1)
			o = o[:at] + "..." + o[at:]
		}
		c.spec += "->" + o
	}
	c.dst = dstClasses[s.next(len(dstClasses))]
	h := fnv.New64a()
	h.Write(data)
	c.seed = h.Sum64()
	return c
}

// checkCase runs the case through ContractTo (cached plan), NewPlan with
// Optimal and Execute with alpha and beta, and Contract, against the
// oracle; it returns what went wrong ("" when nothing did).
func checkCase(tb testing.TB, c randCase) string {
	switch c.typ {
	case 0:
		return checkTyped[float32](tb, c)
	case 1:
		return checkTyped[float64](tb, c)
	case 2:
		return checkTyped[complex64](tb, c)
	}
	return checkTyped[complex128](tb, c)
}

func checkTyped[T Scalar](tb testing.TB, c randCase) string {
	rng := rand.New(rand.NewPCG(c.seed, 1))
	ops := make([]views.View[T], len(c.shapes))
	for k, sh := range c.shapes {
		ops[k] = makeView[T](rng, c.classes[k], sh...)
	}
	if bad := runFeature(tb, c.spec, ops, c.dst); bad != "" {
		return "ContractTo: " + bad
	}
	shape, want := oracle(tb, c.spec, ops...)
	n := termsOf(tb, c.spec, ops)

	s, err := Parse(c.spec)
	if err != nil {
		return err.Error()
	}
	dst := makeDst(c.dst, T(0), shape...)
	p, err := NewPlan(s, dst.v, ops, Options{Path: Optimal})
	if err != nil {
		return "NewPlan(Optimal): " + err.Error()
	}
	before := make([]complex128, len(want))
	i := 0
	eachIndex(shape, func(idx []int) {
		dst.v.Set(tm.FromComplex[T](complex(rng.Float64(), rng.Float64())), idx...)
		before[i] = toC(dst.v.At(idx...))
		i++
	})
	alpha, beta := tm.FromComplex[T](0.5-1i), tm.FromComplex[T](2+0.5i)
	if err := p.Execute(alpha, ops, beta, dst.v, make([]T, p.Workspace())); err != nil {
		return "Execute: " + err.Error()
	}
	for i := range want {
		before[i] = toC(alpha)*want[i] + toC(beta)*before[i]
	}
	if bad := mismatch(dst.v, shape, before, 4*n); bad != "" {
		return fmt.Sprintf("Execute(Optimal, alpha %v, beta %v): %s", alpha, beta, bad)
	}
	if bad := dst.outside(); bad != "" {
		return "Execute: " + bad
	}

	got, err := Contract(c.spec, ops...)
	if err != nil {
		return "Contract: " + err.Error()
	}
	defer got.Release()
	if bad := mismatch(got.View(), shape, want, n); bad != "" {
		return "Contract: " + bad
	}
	return ""
}

func (c randCase) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %q", [...]string{"float32", "float64", "complex64", "complex128"}[c.typ], c.spec)
	for k, sh := range c.shapes {
		fmt.Fprintf(&b, " %v:%v", sh, c.classes[k])
	}
	fmt.Fprintf(&b, " -> dst:%v", c.dst)
	return b.String()
}

// fuzzSeeds are inputs of FuzzEinsum (hex), with what they decode to.
var fuzzSeeds = []string{
	// complex128 "ebc,ed" [2 3 3]:broadcast [2 2]:broadcast -> dst:conj (one gemm, implicit result)
	"c3788fcb05d7047590cc8f631f3def251122ca18bfe9c34633b3c364d1a521103a22309bdd5f17bd",
	// float32 "ad,ad,ebc,ce->" [3 2]:col [1 2]:reversed [2 3 3]:reversed [3 2]:strided (batched dot, repeat)
	"c4987b1b6ec7affb68032a91139912c0e2e11444aaf90f90dfa197985f27da5735b895ce928091b8",
	// complex128 "dad,d,->a" [2 2 2]:strided [1]:row []:reversed -> dst:reversed (diagonal, scalar operand)
	"dfa68760b81c8b6d979c13e47e646ff88661495c4ff863281d5caccb7658320434f8fa23e29a4683",
	// complex64 "cdd...,...,b...bb,...->..." (diagonals, "..." of 0-2 axes, conjugated operand)
	"fab96946d085ec3cb2bff320bcc68fee259eb786447341efd363dd37886fdd82308db3e42410b782",
	// complex64 "aca...,...ac,ccc...,...ea" (copies, implicit result with "...")
	"06e9db6043d9116c834d03e6c4caf14b816b63a2c89d987a1ae6870f10f72a26e33e4257c1be5e3c",
	// complex128 "cea,da,cbd," [2 3 3]:conj [2 3]:reversed [2 3 2]:strided []:conj -> dst:row (four operands)
	"bf44cb3312b2be7f72be0fa2d295c9cdce0b46213328af75b33e5e743717fee0a8bf0c062b2d0f35",
	// complex64 "ce...,d...da,d...a->..." (own-index sum, copies, broadcast operands)
	"f679ba7dcda53f408dfb26a2d54fde5ecebf7c93bc2aad6492801125652eea35d0505736581917cc",
}

func seedBytes(tb testing.TB, h string) []byte {
	b, err := hex.DecodeString(h)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// FuzzEinsum compares random contractions with the oracle. As a unit test
// it runs the seeds above and those under testdata/fuzz/FuzzEinsum.
func FuzzEinsum(f *testing.F) {
	for _, h := range fuzzSeeds {
		f.Add(seedBytes(f, h))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c := decodeCase(data)
		if bad := checkCase(t, c); bad != "" {
			t.Fatalf("%v (input %x): %s", c, data, bad)
		}
	})
}

// TestRandom drives FuzzEinsum's checker over a few hundred random inputs
// (math/rand/v2, fixed seed), and shows what the seeds decode to.
func TestRandom(t *testing.T) {
	for _, h := range fuzzSeeds {
		t.Logf("seed %s: %v", h, decodeCase(seedBytes(t, h)))
	}
	rng := rand.New(rand.NewPCG(2026, 39))
	failures := 0
	kinds := map[string]int{}
	for i := range 1000 {
		data := make([]byte, 48)
		for j := range data {
			data[j] = byte(rng.Uint32())
		}
		c := decodeCase(data)
		kinds[fmt.Sprint(len(c.shapes), " operands")]++
		if strings.Contains(c.spec, "...") {
			kinds["with ..."]++
		}
		if !strings.Contains(c.spec, "->") {
			kinds["implicit"]++
		}
		if bad := checkCase(t, c); bad != "" {
			failures++
			if failures <= 20 {
				t.Errorf("case %d: %v\n\tinput %s\n\t%s", i, c, hex.EncodeToString(data), bad)
			}
		}
	}
	if failures > 0 {
		t.Errorf("%d of 1000 random cases failed", failures)
	}
	t.Logf("cases: %v", kinds)
}
