//go:build !unix

package npy

import (
	"errors"
	"os"
)

const canMap = false

func mmap(*os.File, int) ([]byte, error) { return nil, errors.ErrUnsupported }

func munmap([]byte) error { return nil }
