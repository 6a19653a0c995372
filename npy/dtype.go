package npy

import (
	"encoding/binary"
	"errors"
	"strconv"
	"strings"

	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// Sentinel errors. Every error about a file's contents is a *layout.Error
// (operation, argument, rule) wrapping one of these, or layout.ErrOverflow
// (a shape whose size does not fit an int) or layout.ErrShape (a rank above
// layout.MaxRank), for errors.Is.
var (
	// ErrFormat: not a .npy file, or one whose header is malformed or
	// lies: bad magic or version, a header that is not the Python dict
	// numpy writes, missing or extra keys, negative extents.
	ErrFormat = errors.New("malformed .npy data")
	// ErrTruncated: the file ends before the header or the data its header
	// promises. It also matches ErrFormat.
	ErrTruncated error = &subSentinel{"truncated .npy data", ErrFormat}
	// ErrDtype: a dtype lapis does not read (only float32, float64,
	// complex64 and complex128 are), or a file whose dtype is not the
	// element type asked for. Nothing is converted.
	ErrDtype = errors.New("unsupported or mismatched dtype")
	// ErrUnaligned: Map found the data at a file offset that is not a
	// multiple of the element's alignment, so it cannot be viewed in place;
	// ReadFile reads such files.
	ErrUnaligned = errors.New("data not aligned for mapping")
)

// subSentinel is a sentinel that also matches a broader one.
type subSentinel struct {
	msg    string
	parent error
}

func (s *subSentinel) Error() string { return s.msg }
func (s *subSentinel) Unwrap() error { return s.parent }

// Dtype is the element type of a .npy file: one of the four lapis reads.
type Dtype uint8

// The dtypes lapis reads and writes; numpy's descr for each is "<f4",
// "<f8", "<c8", "<c16" (or ">..." big-endian).
const (
	Float32    Dtype = iota + 1 // numpy float32, descr f4
	Float64                     // numpy float64, descr f8
	Complex64                   // numpy complex64, descr c8
	Complex128                  // numpy complex128, descr c16
)

// String returns the Go (and numpy) name of the type, e.g. "float64".
func (d Dtype) String() string {
	switch d {
	case Float32:
		return "float32"
	case Float64:
		return "float64"
	case Complex64:
		return "complex64"
	case Complex128:
		return "complex128"
	}
	return "invalid dtype"
}

// Size returns the size of one element in bytes (0 for an invalid Dtype).
func (d Dtype) Size() int {
	switch d {
	case Float32:
		return 4
	case Float64, Complex64:
		return 8
	case Complex128:
		return 16
	}
	return 0
}

// unit is the size of the scalars byte order applies to: the element,
// or each of its two parts for complex types.
func (d Dtype) unit() int {
	if d == Complex64 || d == Complex128 {
		return d.Size() / 2
	}
	return d.Size()
}

// code is the kind and size part of numpy's descr, e.g. "f8".
func (d Dtype) code() string {
	switch d {
	case Float32:
		return "f4"
	case Float64:
		return "f8"
	case Complex64:
		return "c8"
	case Complex128:
		return "c16"
	}
	return "?"
}

// DtypeOf returns the Dtype of the element type T.
func DtypeOf[T views.Scalar]() Dtype {
	var z T
	switch any(z).(type) {
	case float32:
		return Float32
	case float64:
		return Float64
	case complex64:
		return Complex64
	default:
		return Complex128
	}
}

// nativeOrder is the byte order of this machine, as LittleEndian or
// BigEndian (never binary.NativeEndian, so that it compares equal to them).
var nativeOrder binary.ByteOrder = func() binary.ByteOrder {
	if binary.NativeEndian.Uint16([]byte{1, 0}) == 1 {
		return binary.LittleEndian
	}
	return binary.BigEndian
}()

// descr returns numpy's descr string for d in order o, e.g. "<f8".
func descr(d Dtype, o binary.ByteOrder) string {
	if o == binary.BigEndian {
		return ">" + d.code()
	}
	return "<" + d.code()
}

// parseDescr reads a simple numpy descr string: an optional byte-order
// character ('<', '>', '=' or '|', the last two meaning this machine's
// order) and f4, f8, c8 or c16. Anything else is ErrDtype, named.
func parseDescr(op, s string) (Dtype, binary.ByteOrder, error) {
	order := nativeOrder
	body := s
	if body != "" {
		switch body[0] {
		case '<':
			order, body = binary.LittleEndian, body[1:]
		case '>':
			order, body = binary.BigEndian, body[1:]
		case '=', '|':
			body = body[1:]
		}
	}
	switch body {
	case "f4":
		return Float32, order, nil
	case "f8":
		return Float64, order, nil
	case "c8":
		return Complex64, order, nil
	case "c16":
		return Complex128, order, nil
	}
	return 0, nil, layout.Errorf(ErrDtype, op, "descr",
		"dtype %s%s is not supported: lapis reads <f4 <f8 <c8 <c16 (float32, float64, complex64, complex128) and their > forms",
		quote(s), kindName(body))
}

// kindName describes a numpy type code that lapis does not read, for the
// error message: " (int32)", " (object)", "".
func kindName(body string) string {
	if body == "" {
		return ""
	}
	size := body[1:]
	name := ""
	switch body[0] {
	case 'i':
		name = "int"
	case 'u':
		name = "uint"
	case 'f':
		name = "float"
	case 'c':
		name = "complex"
	case 'b':
		return " (bool)"
	case 'O':
		return " (Python objects)"
	case 'U':
		return " (unicode string)"
	case 'S', 'a':
		return " (byte string)"
	case 'V':
		return " (void/raw bytes)"
	case 'M':
		return " (datetime64)"
	case 'm':
		return " (timedelta64)"
	default:
		return ""
	}
	bits := 0
	for _, c := range size {
		if c < '0' || c > '9' || bits > 1<<20 {
			return ""
		}
		bits = bits*10 + int(c-'0')
	}
	if size == "" {
		return ""
	}
	if name == "complex" {
		return " (complex" + strconv.Itoa(bits*8) + ")"
	}
	return " (" + name + strconv.Itoa(bits*8) + ")"
}

// quote writes s as Python would repr a str, bounded in length for
// error messages.
func quote(s string) string {
	if len(s) > 40 {
		s = s[:40] + "..."
	}
	var b strings.Builder
	b.WriteByte('\'')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\'' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c < 0x20 || c >= 0x7f:
			const hex = "0123456789abcdef"
			b.WriteString(`\x`)
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('\'')
	return b.String()
}
