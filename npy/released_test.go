package npy_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/internal/test/stale"
	"github.com/lapis-go/lapis/npy"
)

// TestReleasedViews: Write, WriteFile and WriteNPZ refuse a view of a
// released tensor before writing anything (the file is not truncated),
// naming it; a live view of the tensor that took the buffer is written.
func TestReleasedViews(t *testing.T) {
	v, next := stale.Released[float64](t, []int{3, 2})
	defer next.Release()
	var buf bytes.Buffer
	if err := npy.Write(&buf, v); !errors.Is(err, lapis.ErrReleased) || buf.Len() != 0 {
		t.Errorf("Write: %v, %d bytes written; want lapis.ErrReleased and none", err, buf.Len())
	}
	path := filepath.Join(t.TempDir(), "a.npy")
	if err := npy.WriteFile(path, next.View()); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(path)
	if err := npy.WriteFile(path, v); !errors.Is(err, lapis.ErrReleased) {
		t.Errorf("WriteFile: %v, want lapis.ErrReleased", err)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
		t.Error("WriteFile of a released view changed the file")
	}
	buf.Reset()
	err := npy.WriteNPZ(&buf, npy.Stored, npy.Named("ok", next.View()), npy.Named("gone", v))
	if !errors.Is(err, lapis.ErrReleased) || !strings.Contains(err.Error(), `member 'gone'`) || buf.Len() != 0 {
		t.Errorf("WriteNPZ: %v, %d bytes written; want lapis.ErrReleased naming member gone, nothing written", err, buf.Len())
	}
	if err := npy.WriteNPZ(&buf, npy.Deflated, npy.Named("ok", next.View())); err != nil {
		t.Errorf("WriteNPZ of a live view: %v", err)
	}
}
