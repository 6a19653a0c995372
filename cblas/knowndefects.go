package cblas

import (
	"sync"
	"unsafe"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/internal/clib"
	"github.com/lapis-go/lapis/internal/rt/coreset"
)

// Library defects that give wrong answers (not crashes: those are worked
// around where the call is made, see the guard tests) and that lapis
// avoids, decided from what Info reports at run time.

// casumDefect says why the linked library's complex64 ?asum adds the
// wrong elements ("" when it does not: coreset.CasumDefect). Where it
// says so, Asum, Iamax and Gonum.Scasum compute complex64 sums in Go.
var casumDefect = sync.OnceValue(func() string {
	info := lapis.Info()
	return coreset.CasumDefect(info.Library, info.Version, info.Core)
})

// asumC is ?asum by the library for n elements at p, inc > 0 apart, or
// in Go for complex64 where casumDefect says the library's is wrong.
func asumC[T Scalar](n int, p unsafe.Pointer, inc int) float64 {
	if _, c64 := any(*new(T)).(complex64); c64 && casumDefect() != "" {
		return casumGo(int(n), p, int(inc))
	}
	return clib.Asum[T](n, p, inc)
}

// casumGo is sum |Re x[i]| + |Im x[i]| over n complex64 elements at p,
// inc elements apart, added in float64 and rounded to float32 as the
// library's result is.
func casumGo(n int, p unsafe.Pointer, inc int) float64 {
	x := unsafe.Slice((*[2]float32)(p), (n-1)*inc+1)
	var s0, s1 float64
	for i := 0; i < n; i++ {
		e := x[i*inc]
		s0 += float64(abs32(e[0]))
		s1 += float64(abs32(e[1]))
	}
	return float64(float32(s0 + s1))
}

func abs32(v float32) float32 {
	if v < 0 {
		return -v
	}
	return v
}
