// Package backend is where cblas registers the facts about the linked
// BLAS/LAPACK library that the root package lapis reports (lapis.Info,
// lapis.KernelSet). It is pure Go so that lapis stays free of cgo; cblas
// fills it in its package initialisation, before any lapis function can
// be called from a program that links a library.
package backend

import "sync/atomic"

// Kernels is lapis.KernelChoice's twin (the same fields and tags, so that
// lapis converts it): see there.
type Kernels struct {
	Chosen     string `json:"chosen"`
	InUse      string `json:"in_use"`
	Switched   bool   `json:"switched"`
	Reason     string `json:"reason"`
	CPULevel   int    `json:"cpu_level"`
	InUseLevel int    `json:"in_use_level"`
	Setting    string `json:"setting"`
}

// Library is what cblas knows of the linked library (see lapis.LibraryInfo
// for the fields' meaning).
type Library struct {
	Name, Version, Path, Config, Core string
	Kernels                           Kernels
	Sets                              []string // kernel sets the library has and the CPU runs
	Parallel                          int
	IntBits, LibraryIntBits           int
}

var lib atomic.Pointer[Library]

// Register records l; the last call wins (cblas calls it once).
func Register(l Library) { lib.Store(&l) }

// Get returns the registered library, or nil when no package that links
// one (cblas) is part of the program.
func Get() *Library { return lib.Load() }
