package npy

import (
	"archive/zip"
	"compress/flate"
	"errors"
	"io"
	"io/fs"
	"os"
	"strings"
	"time"

	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// Archive is an open .npz file: numpy's zip of .npy members, as np.savez
// (stored) and np.savez_compressed (deflated) write them. Members are
// named without the ".npy" suffix, as numpy's NpzFile names them; members
// whose names do not end in ".npy" are not arrays and are left out.
// Every member's header is read when the archive is opened; its data is
// read by ReadMember. A member lapis cannot read (a dtype other than the
// four, a malformed header) does not stop the others: it is listed, and
// Header and ReadMember return its error.
type Archive struct {
	names   []string
	members map[string]member
	size    int64 // of the zip, bounding what a member can hold
	closer  io.Closer
}

type member struct {
	f   *zip.File
	h   Header
	n   int
	err error // from reading the header
}

// OpenNPZ opens the .npz file at path (as ReadNPZ); Close closes it.
func OpenNPZ(path string) (*Archive, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, ioErr("npy.OpenNPZ", "path", err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, ioErr("npy.OpenNPZ", "path", err)
	}
	a, err := readNPZ(f, st.Size(), "npy.OpenNPZ")
	if err != nil {
		f.Close()
		return nil, err
	}
	a.closer = f
	return a, nil
}

// ReadNPZ reads the zip directory of the .npz held by r (size bytes) and
// the header of every .npy member. It fails, with an error matching
// ErrFormat, only when r is not a zip archive or two members have the same
// name; a member whose header is bad is kept with its error (see Header).
func ReadNPZ(r io.ReaderAt, size int64) (*Archive, error) {
	return readNPZ(r, size, "npy.ReadNPZ")
}

func readNPZ(r io.ReaderAt, size int64, op string) (*Archive, error) {
	z, err := zip.NewReader(r, size)
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) {
		return nil, layout.Errorf(ErrFormat, op, "archive", "not a zip archive: %v", err)
	}
	a := &Archive{members: map[string]member{}, size: size}
	for _, f := range z.File {
		name, ok := strings.CutSuffix(f.Name, ".npy")
		if !ok {
			continue
		}
		if _, dup := a.members[name]; dup {
			return nil, layout.Errorf(ErrFormat, op, "archive", "member %s appears twice", quote(f.Name))
		}
		m := member{f: f}
		rc, err := f.Open()
		if err == nil {
			m.h, m.n, err = readHeader(rc, op, a.memberSize(f))
			rc.Close()
		}
		if err != nil {
			m.err = inMember(err, op, name)
		}
		a.names = append(a.names, name)
		a.members[name] = m
	}
	return a, nil
}

// memberSize returns the uncompressed size of f when the zip directory's
// figure is believable (at most what deflate can expand the stored bytes
// to), or -1.
func (a *Archive) memberSize(f *zip.File) int64 {
	const deflateRatio = 1032 // deflate's largest expansion
	c, u := f.CompressedSize64, f.UncompressedSize64
	switch {
	case c > uint64(a.size) || u > 1<<62:
		return -1
	case f.Method == zip.Store && u == c:
		return int64(u)
	case f.Method == zip.Deflate && u <= c*deflateRatio+1024:
		return int64(u)
	}
	return -1
}

// inMember names the member in an error about its contents. The zip
// reader's complaints (a bad checksum, corrupt deflate data, a size that
// does not match the directory, a compression method other than stored
// and deflated) are ErrFormat.
func inMember(err error, op, name string) error {
	arg := "member " + quote(name)
	var le *layout.Error
	var w *wrapped
	if errors.As(err, &le) {
		c := *le
		c.Arg = arg + ": " + c.Arg
		return &c
	}
	if errors.As(err, &w) {
		op, arg, err = w.op, arg+": "+w.arg, w.err
	}
	var ce flate.CorruptInputError
	if errors.Is(err, zip.ErrChecksum) || errors.Is(err, zip.ErrFormat) || errors.Is(err, zip.ErrAlgorithm) || errors.As(err, &ce) {
		return layout.Errorf(ErrFormat, op, arg, "%v", err)
	}
	return ioErr(op, arg, err)
}

// Names returns the names of the archive's arrays, in archive order.
func (a *Archive) Names() []string { return append([]string(nil), a.names...) }

// Header returns the header of the member name: its Dtype says which T
// ReadMember takes. A name not in the archive is an error matching
// fs.ErrNotExist; a member whose header could not be read returns the
// error ReadNPZ met (ErrFormat, ErrDtype, ... as ReadHeader's, naming the
// member).
func (a *Archive) Header(name string) (Header, error) {
	m, ok := a.members[name]
	if !ok {
		return Header{}, a.missing("npy.Archive.Header", name)
	}
	if m.err != nil {
		return Header{}, m.err
	}
	h := m.h
	h.Shape = append([]int(nil), h.Shape...)
	return h, nil
}

func (a *Archive) missing(op, name string) error {
	return layout.Errorf(fs.ErrNotExist, op, "name", "no member %s; the archive holds %s",
		quote(name), strings.Join(a.names, ", "))
}

// Close closes the file OpenNPZ opened (for ReadNPZ's archives it does
// nothing). Views ReadMember returned stay valid: they hold their own data.
func (a *Archive) Close() error {
	if a.closer == nil {
		return nil
	}
	c := a.closer
	a.closer = nil
	return c.Close()
}

// ReadMember reads the member name of the archive as Read reads a .npy
// file: a view over a new slice of its data, column-major for Fortran
// order, row-major strides for C order. T must be the member's dtype
// (Archive.Header tells it; ErrDtype otherwise). A name not in the archive
// is an error matching fs.ErrNotExist; a member whose header could not be
// read returns Header's error; one whose data is short or fails its zip
// checksum, an error matching ErrFormat.
func ReadMember[T views.Scalar](a *Archive, name string) (views.View[T], error) {
	const op = "npy.ReadMember"
	m, ok := a.members[name]
	if !ok {
		return views.View[T]{}, a.missing(op, name)
	}
	if m.err != nil {
		return views.View[T]{}, m.err
	}
	if err := checkDtype[T](op, m.h); err != nil {
		return views.View[T]{}, inMember(err, op, name)
	}
	rc, err := m.f.Open()
	if err != nil {
		return views.View[T]{}, inMember(err, op, name)
	}
	defer rc.Close()
	if _, err := io.CopyN(io.Discard, rc, m.h.DataOffset); err != nil {
		return views.View[T]{}, inMember(ioErr(op, "header", err), op, name)
	}
	left := a.memberSize(m.f)
	if left >= 0 {
		left -= m.h.DataOffset
	}
	data, err := readData[T](rc, op, m.h, m.n, left)
	if err != nil {
		return views.View[T]{}, inMember(err, op, name)
	}
	// Reading on to the end makes the zip reader check the member's size
	// and checksum.
	var rest [1]byte
	if _, err := rc.Read(rest[:]); err != nil && err != io.EOF {
		return views.View[T]{}, inMember(ioErr(op, "data", err), op, name)
	}
	if m.h.ByteOrder != nativeOrder {
		swapBytes(asBytes(data), m.h.Dtype.unit())
	}
	return viewOf(data, m.h)
}

// Member is one array for WriteNPZ, made by Named.
type Member struct {
	name  string
	check func(op, arg string) error // writable, on the view
	write func(w io.Writer, op string) error
}

// Named returns the member name (written as name + ".npy") holding v,
// for WriteNPZ. v is written when WriteNPZ runs, as Write writes it.
func Named[T views.Scalar](name string, v views.View[T]) Member {
	return Member{
		name:  name,
		check: func(op, arg string) error { return writable(op, arg, v) },
		write: func(w io.Writer, op string) error {
			return write(w, v, op)
		},
	}
}

// Compression is how WriteNPZ stores its members.
type Compression uint8

const (
	// Stored members are not compressed, as np.savez writes them.
	Stored Compression = iota
	// Deflated members are compressed with deflate, as
	// np.savez_compressed writes them.
	Deflated
)

// WriteNPZ writes the members to w as a .npz archive that numpy's np.load
// reads, each member as Write writes a .npy file. The names must be
// non-empty and distinct (errors matching fs.ErrInvalid), no view the
// zero View (layout.ErrBounds), a view of a released tensor
// (lapis.ErrReleased) or one whose compact copy is beyond this machine's
// memory (lapis.ErrTooLarge): this is checked before anything is written. Deflated members are compressed at deflate's default level, as
// numpy's. Errors of w are returned wrapped; the archive is then
// incomplete.
func WriteNPZ(w io.Writer, c Compression, members ...Member) error {
	const op = "npy.WriteNPZ"
	method := zip.Store
	switch c {
	case Stored:
	case Deflated:
		method = zip.Deflate
	default:
		return layout.Errorf(fs.ErrInvalid, op, "c", "compression %d is neither Stored nor Deflated", c)
	}
	seen := map[string]bool{}
	for i, m := range members {
		switch {
		case m.write == nil || m.name == "":
			return layout.Errorf(fs.ErrInvalid, op, "members", "member %d has no name (make members with Named)", i)
		case seen[m.name]:
			return layout.Errorf(fs.ErrInvalid, op, "members", "member name %s appears twice", quote(m.name))
		}
		if err := m.check(op, "member "+quote(m.name)); err != nil {
			return err
		}
		seen[m.name] = true
	}
	z := zip.NewWriter(w)
	for _, m := range members {
		fw, err := z.CreateHeader(&zip.FileHeader{
			Name:     m.name + ".npy",
			Method:   method,
			Modified: time.Date(1980, 1, 1, 0, 0, 0, 0, time.UTC),
		})
		if err != nil {
			return ioErr(op, "member "+quote(m.name), err)
		}
		if err := m.write(fw, op); err != nil {
			return inMember(err, op, m.name)
		}
	}
	if err := z.Close(); err != nil {
		return ioErr(op, "archive", err)
	}
	return nil
}
