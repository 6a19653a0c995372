package pool

import (
	"sync"
	"testing"
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
