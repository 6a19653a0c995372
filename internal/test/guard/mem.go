package guard

import (
	"fmt"
	"io"
	"strconv"
	"sync"
	"unsafe"
)

// Side says where the guard page of an operand is.
type Side int8

const (
	Low  Side = iota // the page just below the operand's first element
	High             // the page just above its last element
)

// Sides lists both sides, for tables that run every case on each.
var Sides = [...]Side{Low, High}

func (s Side) String() string {
	if s == Low {
		return "low"
	}
	return "high"
}

// Arena hands out guarded memory on one side and frees it all at once. A
// nil *Arena hands out ordinary Go memory instead (the reference run of a
// case); its Free does nothing.
type Arena struct {
	side    Side
	regions []*region
}

// region is one operand's mapping: data [lo, hi) of elements of size
// elem, next to a guard page.
type region struct {
	name   string
	mem    []byte
	lo, hi uintptr
	elem   int
	side   Side
}

// NewArena returns an arena placing operands against guard pages on side.
func NewArena(side Side) *Arena { return &Arena{side: side} }

// Side returns the side of the arena's guard pages.
func (a *Arena) Side() Side { return a.side }

// Free unmaps everything the arena handed out. Slices and views of it
// must not be used afterwards (they fault).
func (a *Arena) Free() {
	if a == nil {
		return
	}
	live.Lock()
	for _, r := range a.regions {
		delete(live.m, r)
	}
	live.Unlock()
	for _, r := range a.regions {
		if err := unmapRegion(r.mem); err != nil {
			panic("guard: munmap: " + err.Error())
		}
	}
	a.regions = nil
}

// Slice returns n elements of E (zero) whose memory ends right before the
// arena's guard page (High) or starts right after it (Low); with a nil
// arena, make([]E, n). It panics if the memory cannot be mapped.
func Slice[E any](a *Arena, name string, n int) []E {
	if a == nil || n == 0 {
		return make([]E, n)
	}
	elem := int(unsafe.Sizeof(*new(E)))
	if elem == 0 || pageSize%elem != 0 {
		panic(fmt.Sprintf("guard: element size %d does not divide the page size", elem))
	}
	mem, data, err := mapRegion(n*elem, a.side)
	if err != nil {
		panic("guard: mmap: " + err.Error())
	}
	p := uintptr(unsafe.Pointer(&data[0]))
	r := &region{name: name, mem: mem, lo: p, hi: p + uintptr(len(data)), elem: elem, side: a.side}
	a.regions = append(a.regions, r)
	live.Lock()
	live.m[r] = true
	w := live.w
	live.Unlock()
	if w != nil {
		// The child announces each operand before using it, so that the
		// parent can name the operand a crash in C faulted next to.
		fmt.Fprintf(w, "guard: region %#x %#x %d %s %s\n", r.lo, r.hi, r.elem, r.side, strconv.Quote(r.name))
	}
	return unsafe.Slice((*E)(unsafe.Pointer(&data[0])), n)
}

// live is the set of mapped regions of this process, for naming a fault
// address; w, if not nil, receives a line for each new region.
var live = struct {
	sync.Mutex
	m map[*region]bool
	w io.Writer
}{m: map[*region]bool{}}

// describe names the operand whose guard page holds addr, with the
// distance from its data, or says that addr is in none.
func describe(regions []*region, addr uintptr) string {
	page := uintptr(pageSize)
	for _, r := range regions {
		switch {
		case r.side == High && addr >= r.hi && addr < r.hi+page:
			d := addr - r.hi
			return fmt.Sprintf("%d bytes past the end of %s (element %d after its last, guard side high)", d, r.name, int(d)/r.elem+1)
		case r.side == Low && addr < r.lo && addr >= r.lo-page:
			d := r.lo - addr
			return fmt.Sprintf("%d bytes before the start of %s (element %d before its first, guard side low)", d, r.name, (int(d)+r.elem-1)/r.elem)
		case addr >= r.lo && addr < r.hi:
			return fmt.Sprintf("inside %s (offset %d bytes)", r.name, addr-r.lo)
		}
	}
	return "not next to any operand of the case"
}

// describeLive is describe over the regions mapped now.
func describeLive(addr uintptr) string {
	live.Lock()
	rs := make([]*region, 0, len(live.m))
	for r := range live.m {
		rs = append(rs, r)
	}
	live.Unlock()
	return describe(rs, addr)
}
