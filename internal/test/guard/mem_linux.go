//go:build linux

package guard

import "syscall"

// Supported reports whether guard pages work on this system.
const Supported = true

var pageSize = syscall.Getpagesize()

// mapRegion maps size bytes (size > 0) next to a PROT_NONE page on side
// and returns the whole mapping and the data part of it.
func mapRegion(size int, side Side) (mem, data []byte, err error) {
	n := (size + pageSize - 1) / pageSize * pageSize
	mem, err = syscall.Mmap(-1, 0, n+pageSize, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		return nil, nil, err
	}
	var guard []byte
	if side == Low {
		guard, data = mem[:pageSize], mem[pageSize:pageSize+size]
	} else {
		guard, data = mem[n:], mem[n-size:n]
	}
	if err := syscall.Mprotect(guard, syscall.PROT_NONE); err != nil {
		_ = syscall.Munmap(mem)
		return nil, nil, err
	}
	return mem, data, nil
}

func unmapRegion(mem []byte) error { return syscall.Munmap(mem) }
