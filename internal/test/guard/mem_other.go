//go:build !linux

package guard

import "errors"

// Supported reports whether guard pages work on this system.
const Supported = false

var pageSize = 4096

func mapRegion(size int, side Side) (mem, data []byte, err error) {
	return nil, nil, errors.New("guard: guard pages need linux")
}

func unmapRegion(mem []byte) error { return nil }
