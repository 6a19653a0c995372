package pool

import (
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/lapis-go/lapis/layout"
)

func TestClass(t *testing.T) {
	prev := 0
	for n := 1; n < 1<<20; n += 1 + n/7 {
		c, capacity := class(n)
		if capacity < n || (n > minCap && capacity > n+n/4+1) {
			t.Fatalf("class(%d) capacity %d: not in [n, 1.25n]", n, capacity)
		}
		if c < prev || c >= numClasses {
			t.Fatalf("class(%d) = %d, not monotone after %d", n, c, prev)
		}
		// every n of a class fits its capacity
		if c2, cap2 := class(capacity); c2 != c || cap2 != capacity {
			t.Fatalf("class(%d) = %d,%d but class(%d) = %d,%d", n, c, capacity, capacity, c2, cap2)
		}
		prev = c
	}
}

func TestGetPut(t *testing.T) {
	b := Get[float64](1000)
	if len(b.Data) != 1000 || cap(b.Data) < 1000 {
		t.Fatalf("len %d cap %d", len(b.Data), cap(b.Data))
	}
	Put(b)
	z := Get[complex64](0)
	if z.Data != nil {
		t.Fatal("empty buffer has data")
	}
	Put(z)
	Put[int32](nil)
}

func TestSteadyStateNoAllocs(t *testing.T) {
	Put(Get[float32](5000)) // warm
	if n := testing.AllocsPerRun(100, func() { Put(Get[float32](5000)) }); n != 0 {
		t.Errorf("Get/Put allocates %v times per run", n)
	}
}

func TestConcurrent(t *testing.T) {
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				b := Get[complex128](100 + 37*i)
				for k := range b.Data {
					b.Data[k] = complex(float64(g), float64(k))
				}
				for k := range b.Data {
					if b.Data[k] != complex(float64(g), float64(k)) {
						t.Errorf("buffer shared between goroutines")
						return
					}
				}
				Put(b)
			}
		}(g)
	}
	wg.Wait()
}

// TestGen: Return advances a buffer's generation (Put alone does not:
// workspaces nobody recorded cost no atomic operation), and Dead is never
// current for generation 0.
func TestGen(t *testing.T) {
	b := Get[float64](100)
	g := b.Gen.Load()
	Put(b)
	if b.Gen.Load() != g {
		t.Errorf("Put advanced the generation")
	}
	b = Get[float64](100)
	g = b.Gen.Load()
	Return(b)
	if b.Gen.Load() != g+1 {
		t.Errorf("Return: generation %d, want %d", b.Gen.Load(), g+1)
	}
	if Dead.Load() == 0 {
		t.Error("Dead is current for generation 0")
	}
	Return(Get[int32](0)) // empty buffers advance too, and are not pooled
}

// TestFormatBytes: the unit and at most one decimal.
func TestFormatBytes(t *testing.T) {
	for n, want := range map[uint64]string{0: "0 B", 1023: "1023 B", 1024: "1 KiB", 1536: "1.5 KiB", 8 << 40: "8 TiB", 23 << 30: "23 GiB", 1<<64 - 1: "16 EiB"} {
		if got := FormatBytes(n); got != want {
			t.Errorf("FormatBytes(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestCheck: the gate passes what fits MaxBytes, refuses the rest with
// ErrTooLarge naming op, arg, shape, type and bytes, and a product
// beyond 64 bits too.
func TestCheck(t *testing.T) {
	defer func(m uint64) { MaxBytes = m }(MaxBytes)
	MaxBytes = 1 << 20
	if err := Check[float64]("op", "a", 128, 1024); err != nil {
		t.Errorf("1 MiB: %v", err)
	}
	err := Check[float64]("op", "a", 129, 1024)
	if !errors.Is(err, ErrTooLarge) || err.Error() != "op: a: [129 1024] float64 elements take 1.01 MiB, over the 1 MiB lapis allocates at most here (too large for this machine's memory)" {
		t.Errorf("1 MiB + 8 KiB: %v", err)
	}
	if err := Check[complex64]("op", "b", 1<<40, 1<<40); !errors.Is(err, layout.ErrOverflow) || !strings.Contains(err.Error(), "more than an int holds") {
		t.Errorf("2^80 elements: %v", err)
	}
	if err := Check[complex128]("op", "b", 1<<31, 1<<31); !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "more than 16 EiB") {
		t.Errorf("2^62 complex128 elements: %v", err)
	}
	func() {
		defer func() {
			if err, _ := recover().(error); !errors.Is(err, ErrTooLarge) {
				t.Errorf("Get past the gate panicked with %v, want ErrTooLarge", err)
			}
		}()
		Get[float64](1 << 20)
	}()
}
