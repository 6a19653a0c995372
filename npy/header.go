package npy

import (
	"bytes"
	"encoding/binary"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/lapis-go/lapis/layout"
)

// Header is what a .npy file says about its array.
type Header struct {
	Version      int              // the format's major version: 1, 2 or 3
	Dtype        Dtype            // the element type
	ByteOrder    binary.ByteOrder // binary.LittleEndian or binary.BigEndian ('=' and '|': this machine's)
	FortranOrder bool             // data column-major (true) or row-major, numpy's C order (false)
	Shape        []int            // numpy's shape, in numpy's axis order
	DataOffset   int64            // bytes from the start of the file to the data
}

// Descr returns numpy's descr string for the header's dtype and byte
// order, e.g. "<f8".
func (h Header) Descr() string { return descr(h.Dtype, h.ByteOrder) }

const (
	magic = "\x93NUMPY"
	// maxHeader bounds the header length this package reads. Headers of
	// the dtypes it supports are under 2 KiB (rank 64); numpy's own reader
	// refuses more than 10000 bytes unless told otherwise.
	maxHeader = 1 << 20
	// maxDepth bounds the nesting of the header's Python literal.
	maxDepth = 16
)

// ReadHeader reads the header of a .npy file from r: the magic string,
// the version (1.0, 2.0 or 3.0), the header length and the Python dict
// {'descr': ..., 'fortran_order': ..., 'shape': ...}. It leaves r just
// before the data. Errors match ErrFormat (bad magic, version or dict;
// ErrTruncated when r ends early), ErrDtype (a dtype other than float32,
// float64, complex64 and complex128), layout.ErrOverflow (a shape whose
// byte size does not fit an int) or layout.ErrShape (rank above
// layout.MaxRank); errors from r itself are returned wrapped.
func ReadHeader(r io.Reader) (Header, error) {
	h, _, err := readHeader(r, "npy.ReadHeader", avail(r))
	return h, err
}

// readHeader is ReadHeader with the operation to name in errors and the
// bytes left in r (-1 if unknown). It also returns the number of elements.
func readHeader(r io.Reader, op string, left int64) (Header, int, error) {
	var pre [12]byte
	n, err := io.ReadFull(r, pre[:8])
	if err != nil {
		if err != io.EOF && err != io.ErrUnexpectedEOF {
			return Header{}, 0, ioErr(op, "preamble", err)
		}
		if string(pre[:min(n, 6)]) != magic[:min(n, 6)] {
			return Header{}, 0, badMagic(op, pre[:min(n, 6)])
		}
		return Header{}, 0, layout.Errorf(ErrTruncated, op, "preamble",
			"the input ends after %d bytes, inside the 10-byte preamble", n)
	}
	if string(pre[:6]) != magic {
		return Header{}, 0, badMagic(op, pre[:6])
	}
	major, minor := int(pre[6]), int(pre[7])
	if minor != 0 || major < 1 || major > 3 {
		return Header{}, 0, layout.Errorf(ErrFormat, op, "version",
			"version %d.%d: lapis reads .npy versions 1.0, 2.0 and 3.0", major, minor)
	}
	lenBytes := 2
	if major > 1 {
		lenBytes = 4
	}
	if n, err := io.ReadFull(r, pre[8:8+lenBytes]); err != nil {
		if err != io.EOF && err != io.ErrUnexpectedEOF {
			return Header{}, 0, ioErr(op, "header length", err)
		}
		return Header{}, 0, layout.Errorf(ErrTruncated, op, "header length",
			"the input ends after %d bytes, inside the %d-byte preamble", 8+n, 8+lenBytes)
	}
	var hlen int64
	if lenBytes == 2 {
		hlen = int64(binary.LittleEndian.Uint16(pre[8:]))
	} else {
		hlen = int64(binary.LittleEndian.Uint32(pre[8:]))
	}
	pre1 := int64(8 + lenBytes)
	if left >= 0 && hlen > left-pre1 {
		return Header{}, 0, layout.Errorf(ErrTruncated, op, "header length",
			"header length %d runs past the end of the input (%d bytes after the preamble)", hlen, max(0, left-pre1))
	}
	if hlen > maxHeader {
		return Header{}, 0, layout.Errorf(ErrFormat, op, "header length",
			"header length %d is more than the %d bytes lapis reads (the dtypes it supports need under 2 KiB)", hlen, maxHeader)
	}
	text := make([]byte, hlen)
	if n, err := io.ReadFull(r, text); err != nil {
		if err != io.EOF && err != io.ErrUnexpectedEOF {
			return Header{}, 0, ioErr(op, "header", err)
		}
		return Header{}, 0, layout.Errorf(ErrTruncated, op, "header",
			"header length %d runs past the end of the input (%d bytes after the preamble)", hlen, n)
	}
	h, count, err := parseHeader(op, text, major)
	if err != nil {
		return Header{}, 0, err
	}
	h.DataOffset = pre1 + hlen
	return h, count, nil
}

func badMagic(op string, got []byte) error {
	return layout.Errorf(ErrFormat, op, "magic",
		"the input starts with %s, not numpy's magic '\\x93NUMPY': not a .npy file", quote(string(got)))
}

func ioErr(op, arg string, err error) error {
	return &wrapped{op, arg, err}
}

// wrapped is an I/O error from the caller's reader or writer, prefixed
// with the operation and what it was doing.
type wrapped struct {
	op, arg string
	err     error
}

func (w *wrapped) Error() string { return w.op + ": " + w.arg + ": " + w.err.Error() }
func (w *wrapped) Unwrap() error { return w.err }

// avail returns the number of bytes left in r when r can tell without
// being read (bytes.Reader, strings.Reader, bytes.Buffer, files and other
// io.Seekers), or -1.
func avail(r io.Reader) int64 {
	switch x := r.(type) {
	case *bytes.Reader:
		return int64(x.Len())
	case *strings.Reader:
		return int64(x.Len())
	case *bytes.Buffer:
		return int64(x.Len())
	case io.Seeker:
		cur, err := x.Seek(0, io.SeekCurrent)
		if err != nil {
			return -1
		}
		end, err := x.Seek(0, io.SeekEnd)
		if _, err2 := x.Seek(cur, io.SeekStart); err != nil || err2 != nil || end < cur {
			return -1
		}
		return end - cur
	}
	return -1
}

// parseHeader checks the header dict and returns the header (without
// DataOffset) and the number of elements.
func parseHeader(op string, text []byte, version int) (Header, int, error) {
	p := parser{s: text, op: op}
	v, err := p.value(0)
	if err == nil {
		p.space()
		if p.i < len(p.s) {
			err = p.fail("unexpected %s after the dict", p.near())
		}
	}
	if err != nil {
		return Header{}, 0, err
	}
	if v.kind != pyDict {
		return Header{}, 0, layout.Errorf(ErrFormat, op, "header",
			"the header is a Python %s, not a dict", v.kind)
	}
	h := Header{Version: version}
	var seen [3]bool
	for k, key := range v.keys {
		if key.kind != pyStr {
			return Header{}, 0, layout.Errorf(ErrFormat, op, "header",
				"a key is a Python %s; the keys are 'descr', 'fortran_order' and 'shape'", key.kind)
		}
		val := v.items[k]
		var i int
		switch key.s {
		case "descr":
			i = 0
			switch val.kind {
			case pyStr:
				h.Dtype, h.ByteOrder, err = parseDescr(op, val.s)
				if err != nil {
					return Header{}, 0, err
				}
			case pyList:
				return Header{}, 0, layout.Errorf(ErrDtype, op, "descr",
					"a structured dtype (a list of %d fields) is not supported: lapis reads f4, f8, c8 and c16 arrays", len(val.items))
			case pyTuple:
				return Header{}, 0, layout.Errorf(ErrDtype, op, "descr",
					"a sub-array dtype (a tuple) is not supported: lapis reads f4, f8, c8 and c16 arrays")
			default:
				return Header{}, 0, layout.Errorf(ErrFormat, op, "descr",
					"descr is a Python %s, not a str", val.kind)
			}
		case "fortran_order":
			i = 1
			if val.kind != pyBool {
				return Header{}, 0, layout.Errorf(ErrFormat, op, "fortran_order",
					"fortran_order is a Python %s, not True or False", val.kind)
			}
			h.FortranOrder = val.b
		case "shape":
			i = 2
			if val.kind != pyTuple {
				return Header{}, 0, layout.Errorf(ErrFormat, op, "shape",
					"shape is a Python %s, not a tuple", val.kind)
			}
			if len(val.items) > layout.MaxRank {
				return Header{}, 0, layout.Errorf(layout.ErrShape, op, "shape",
					"rank %d is more than layout.MaxRank (%d)", len(val.items), layout.MaxRank)
			}
			h.Shape = make([]int, len(val.items))
			for d, e := range val.items {
				switch {
				case e.kind != pyInt:
					return Header{}, 0, layout.Errorf(ErrFormat, op, "shape",
						"extent %d is a Python %s, not an int", d, e.kind)
				case e.neg && (e.big || e.i != 0):
					return Header{}, 0, layout.Errorf(ErrFormat, op, "shape",
						"extent %d is negative (%s)", d, e.text)
				case e.big:
					return Header{}, 0, layout.Errorf(layout.ErrOverflow, op, "shape",
						"extent %d (%s) does not fit an int", d, e.text)
				}
				h.Shape[d] = e.i
			}
		default:
			return Header{}, 0, layout.Errorf(ErrFormat, op, "header",
				"unexpected key %s: the keys are 'descr', 'fortran_order' and 'shape'", quote(key.s))
		}
		if seen[i] {
			return Header{}, 0, layout.Errorf(ErrFormat, op, "header", "key %s appears twice", quote(key.s))
		}
		seen[i] = true
	}
	for i, name := range [3]string{"descr", "fortran_order", "shape"} {
		if !seen[i] {
			return Header{}, 0, layout.Errorf(ErrFormat, op, "header", "no %s key", quote(name))
		}
	}
	count := 1
	for _, d := range h.Shape {
		if d != 0 && count > math.MaxInt/d {
			count = -1
			break
		}
		count *= d
	}
	if count < 0 || count > math.MaxInt/h.Dtype.Size() {
		return Header{}, 0, layout.Errorf(layout.ErrOverflow, op, "shape",
			"%s of %s: the data's size in bytes does not fit an int", shapeText(h.Shape), h.Dtype)
	}
	return h, count, nil
}

// shapeText writes a shape as Python writes a tuple: (), (3,), (3, 4).
func shapeText(shape []int) string {
	var b strings.Builder
	b.WriteByte('(')
	for i, d := range shape {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Itoa(d))
	}
	if len(shape) == 1 {
		b.WriteByte(',')
	}
	b.WriteByte(')')
	return b.String()
}

// The Python literal of the header. It is parsed, not evaluated: the
// grammar is ast.literal_eval's for what numpy writes (str, int, True,
// False, None, tuple, list, dict), with Python 2's long suffix (3L) that
// numpy's reader also accepts.

type pyKind uint8

const (
	pyStr pyKind = iota
	pyInt
	pyBool
	pyNone
	pyTuple
	pyList
	pyDict
)

func (k pyKind) String() string {
	return [...]string{"str", "int", "bool", "None", "tuple", "list", "dict"}[k]
}

type pyValue struct {
	kind  pyKind
	s     string // pyStr
	i     int    // pyInt: the magnitude, when !big
	neg   bool   // pyInt: a minus sign
	big   bool   // pyInt: more than an int holds
	text  string // pyInt: as written
	b     bool   // pyBool
	items []pyValue
	keys  []pyValue // pyDict: keys[k] maps to items[k]
}

type parser struct {
	s  []byte
	i  int
	op string
}

func (p *parser) fail(format string, a ...any) error {
	return layout.Errorf(ErrFormat, p.op, "header", "not a Python literal at byte %d: "+format, append([]any{p.i}, a...)...)
}

func (p *parser) near() string {
	if p.i >= len(p.s) {
		return "end of header"
	}
	return quote(string(p.s[p.i:min(len(p.s), p.i+12)]))
}

func (p *parser) space() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\n', '\r', '\f', '\v':
			p.i++
		default:
			return
		}
	}
}

func (p *parser) value(depth int) (pyValue, error) {
	if depth > maxDepth {
		return pyValue{}, p.fail("nested more than %d deep", maxDepth)
	}
	p.space()
	if p.i >= len(p.s) {
		return pyValue{}, p.fail("the header ends where a value should be")
	}
	switch c := p.s[p.i]; {
	case c == '\'' || c == '"':
		return p.str()
	case c == '-' || c == '+' || (c >= '0' && c <= '9'):
		return p.int()
	case c == '(':
		return p.seq(depth, ')')
	case c == '[':
		return p.seq(depth, ']')
	case c == '{':
		return p.dict(depth)
	case c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c == '_':
		j := p.i
		for j < len(p.s) && (p.s[j] >= 'A' && p.s[j] <= 'Z' || p.s[j] >= 'a' && p.s[j] <= 'z' || p.s[j] >= '0' && p.s[j] <= '9' || p.s[j] == '_') {
			j++
		}
		name := string(p.s[p.i:j])
		switch name {
		case "True", "False":
			p.i = j
			return pyValue{kind: pyBool, b: name == "True"}, nil
		case "None":
			p.i = j
			return pyValue{kind: pyNone}, nil
		}
		return pyValue{}, p.fail("the name %s is not a literal (True, False or None)", quote(name))
	}
	return pyValue{}, p.fail("unexpected %s", p.near())
}

func (p *parser) str() (pyValue, error) {
	q := p.s[p.i]
	start := p.i
	p.i++
	var b []byte
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == q:
			p.i++
			return pyValue{kind: pyStr, s: string(b)}, nil
		case c == '\n':
			p.i = start
			return pyValue{}, p.fail("a string that does not end on its line")
		case c == '\\' && p.i+1 < len(p.s):
			b = append(b, p.s[p.i+1])
			p.i += 2
		default:
			b = append(b, c)
			p.i++
		}
	}
	p.i = start
	return pyValue{}, p.fail("a string that does not end")
}

func (p *parser) int() (pyValue, error) {
	start := p.i
	v := pyValue{kind: pyInt}
	for p.i < len(p.s) && (p.s[p.i] == '-' || p.s[p.i] == '+') {
		if p.s[p.i] == '-' {
			v.neg = !v.neg
		}
		p.i++
		p.space()
	}
	d0 := p.i
	for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
		x := int(p.s[p.i] - '0')
		if v.i > (math.MaxInt-x)/10 {
			v.big = true
		} else if !v.big {
			v.i = v.i*10 + x
		}
		p.i++
	}
	switch {
	case p.i == d0:
		return pyValue{}, p.fail("a sign without digits")
	case p.s[d0] == '0' && p.i-d0 > 1:
		p.i = d0
		return pyValue{}, p.fail("an int with a leading zero")
	}
	v.text = string(p.s[start:p.i])
	if p.i < len(p.s) && (p.s[p.i] == 'L' || p.s[p.i] == 'l') {
		p.i++ // Python 2's long, as numpy's reader filters it
	}
	if p.i < len(p.s) && (p.s[p.i] == '.' || p.s[p.i] == 'e' || p.s[p.i] == 'E' || p.s[p.i] == 'x' || p.s[p.i] == '_' ||
		p.s[p.i] >= 'A' && p.s[p.i] <= 'Z' || p.s[p.i] >= 'a' && p.s[p.i] <= 'z') {
		return pyValue{}, p.fail("a number that is not a decimal int: %s", p.near())
	}
	return v, nil
}

// seq parses a tuple or a list. A parenthesised value without a comma is
// that value, as in Python: (3) is the int 3, (3,) a tuple.
func (p *parser) seq(depth int, end byte) (pyValue, error) {
	p.i++
	kind := pyList
	if end == ')' {
		kind = pyTuple
	}
	var items []pyValue
	comma := false
	for {
		p.space()
		if p.i < len(p.s) && p.s[p.i] == end {
			p.i++
			if kind == pyTuple && len(items) == 1 && !comma {
				return items[0], nil
			}
			return pyValue{kind: kind, items: items}, nil
		}
		if len(items) > 0 && !comma {
			return pyValue{}, p.fail("expected ',' or %s, found %s", quote(string(end)), p.near())
		}
		v, err := p.value(depth + 1)
		if err != nil {
			return pyValue{}, err
		}
		items = append(items, v)
		p.space()
		comma = p.i < len(p.s) && p.s[p.i] == ','
		if comma {
			p.i++
		}
	}
}

func (p *parser) dict(depth int) (pyValue, error) {
	p.i++
	v := pyValue{kind: pyDict}
	comma := true
	for {
		p.space()
		if p.i < len(p.s) && p.s[p.i] == '}' {
			p.i++
			return v, nil
		}
		if !comma {
			return pyValue{}, p.fail("expected ',' or '}', found %s", p.near())
		}
		k, err := p.value(depth + 1)
		if err != nil {
			return pyValue{}, err
		}
		if k.kind == pyList || k.kind == pyDict {
			return pyValue{}, p.fail("a %s as a dict key", k.kind)
		}
		p.space()
		if p.i >= len(p.s) || p.s[p.i] != ':' {
			return pyValue{}, p.fail("expected ':' after a dict key, found %s", p.near())
		}
		p.i++
		x, err := p.value(depth + 1)
		if err != nil {
			return pyValue{}, err
		}
		v.keys = append(v.keys, k)
		v.items = append(v.items, x)
		p.space()
		comma = p.i < len(p.s) && p.s[p.i] == ','
		if comma {
			p.i++
		}
	}
}

// appendHeader appends the preamble and header numpy would write for an
// array of dtype d (little-endian) in the given order and shape: version
// 1.0, or 2.0 when the header does not fit version 1.0's 16-bit length,
// padded with spaces and a newline so that the data starts at a multiple
// of 64 bytes.
func appendHeader(dst []byte, d Dtype, fortran bool, shape []int) []byte {
	order := "False"
	if fortran {
		order = "True"
	}
	dict := "{'descr': '" + descr(d, binary.LittleEndian) + "', 'fortran_order': " + order +
		", 'shape': " + shapeText(shape) + ", }"
	pre := 10
	total := pre + len(dict) + 1
	total += (64 - total%64) % 64
	if total-pre > math.MaxUint16 {
		pre = 12
		total = pre + len(dict) + 1
		total += (64 - total%64) % 64
	}
	hlen := total - pre
	dst = append(dst, magic...)
	if pre == 10 {
		dst = append(dst, 1, 0)
		dst = binary.LittleEndian.AppendUint16(dst, uint16(hlen))
	} else {
		dst = append(dst, 2, 0)
		dst = binary.LittleEndian.AppendUint32(dst, uint32(hlen))
	}
	dst = append(dst, dict...)
	for range hlen - len(dict) - 1 {
		dst = append(dst, ' ')
	}
	return append(dst, '\n')
}
