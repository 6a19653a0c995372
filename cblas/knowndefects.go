package cblas

// #include "lapis_cblas.h"
import "C"

import (
	"fmt"
	"sync"
	"unsafe"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/internal/version"
)

// Library defects that give wrong answers (not crashes: those are worked
// around where the call is made, see the guard tests) and that lapis
// avoids, decided from what Info reports at run time.

// CasumDefect returns why the linked library's complex64 ?asum is known
// to add the wrong elements, or "" when it is not: OpenBLAS before
// 0.3.25 runs its generic C casum kernel on Cooperlake and Sapphire
// Rapids cores, and that kernel reads the tail of a vector from its start
// instead of where the vector loop stopped (OpenMathLib/OpenBLAS#4282;
// those cores take the AVX-512 kernel since 0.3.25, #4287, and the C
// kernel is fixed in 0.3.26, #4326). Where it says so, Asum, Iamax and
// Gonum.Scasum compute complex64 sums in Go; LAPACK routines that call
// scasum inside OpenBLAS (complex64 ?latrs, so ?gecon and ?trcon) remain
// affected, which OPENBLAS_CORETYPE=Haswell (or a newer OpenBLAS) avoids.
func CasumDefect() string { return casumDefect() }

var casumDefect = sync.OnceValue(func() string {
	info := lapis.Info()
	if info.Library == "OpenBLAS" && version.Less(info.Version, "0.3.25") && (info.Core == "Cooperlake" || info.Core == "SapphireRapids") {
		return fmt.Sprintf("OpenBLAS %s's casum kernel for %s drops the tail of the vector (OpenMathLib/OpenBLAS#4282, fixed in 0.3.25)", info.Version, info.Core)
	}
	return ""
})

// asumC is ?asum by the library for n elements at p, inc > 0 apart, or
// in Go for complex64 where CasumDefect says the library's is wrong.
func asumC[T Scalar](n C.blasint, p unsafe.Pointer, inc C.blasint) float64 {
	if _, c64 := any(*new(T)).(complex64); c64 && casumDefect() != "" {
		return casumGo(int(n), p, int(inc))
	}
	return xasum[T](n, p, inc)
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
