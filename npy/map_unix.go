//go:build unix

package npy

import (
	"os"
	"syscall"
)

const canMap = true

func mmap(f *os.File, size int) ([]byte, error) {
	return syscall.Mmap(int(f.Fd()), 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE)
}

func munmap(b []byte) error { return syscall.Munmap(b) }
