package lapis_test

import (
	"go/doc/comment"
	"go/parser"
	"go/scanner"
	"go/token"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// TestDocRefs checks that every reference to documentation in the
// repository resolves: in the comments and string literals of every .go
// file, the comments of every other source file (shell, C, Fortran,
// assembly, YAML, Dockerfiles) and the prose of every .md file (code
// blocks and code spans left out), the repository's files being git's
// tracked ones and the new ones it does not ignore. A reference may span
// comment lines. The forms it resolves:
//
//   - a Markdown link to a local file, [text](path) or [text](path#anchor)
//     or [text](#anchor): the file must be one of the repository's (a
//     directory must hold one), and the anchor must be the GitHub slug of a heading
//     of that file (lower case, spaces to '-', punctuation other than '-'
//     and '_' dropped, "-1", "-2" for repeated headings);
//   - a path to a .md file, with or without an anchor, as in
//     (docs/errors.md#allocation): relative to the repository root or to
//     the file that names it, with the same rules; bare lower-case names
//     (bench.md, a file a command writes) are not references;
//   - a section named in quotes after a document, README, "Speed",
//     README's "Speed", README "Speed", docs/lapack.md, "Conditioning",
//     [lapack.md](lapack.md), "Conditioning", or before it, "Conditioning"
//     in docs/lapack.md, "Speed" in the README, or unquoted and alone in
//     parentheses, (README, Speed): a heading of that file, compared by
//     slug (README and CONTRIBUTING are README.md and CONTRIBUTING.md);
//   - a section of Go package documentation, "Threads" in package cblas,
//     "NaN and Inf" in the package documentation (or docs, or doc) and the
//     package documentation's "NaN and Inf" in a .go file: a heading
//     ("# Heading") of that package's doc comment; "the package
//     documentation" alone requires the package to have one.
//
// It fails with file:line and the reason for every reference that does
// not resolve. It skips this file, whose comments and tables show the
// forms rather than refer to anything.
func TestDocRefs(t *testing.T) {
	files := trackedFiles(t)
	r := newDocResolver(files)
	n := 0
	for _, f := range files {
		var blocks []textBlock
		switch {
		case f == "docrefs_test.go":
			continue
		case strings.HasSuffix(f, ".go"):
			blocks = goText(t, f)
		case strings.HasSuffix(f, ".md"):
			blocks = mdText(t, f)
		case commentedSource(f):
			blocks = lineComments(t, f)
		default:
			continue
		}
		for _, ref := range findDocRefs(f, blocks) {
			n++
			if why := r.resolve(ref); why != "" {
				t.Errorf("%s:%d: %s: %s", f, ref.line, ref.text, why)
			}
		}
	}
	t.Logf("%d references to documentation in %d files", n, len(files))
	if n < 100 {
		t.Errorf("found only %d references: the scan is broken", n)
	}
}

// TestDocRefsForms checks that findDocRefs finds each form TestDocRefs
// documents (and nothing in code spans or in a file name a command
// writes), and that resolve rejects what does not exist.
func TestDocRefsForms(t *testing.T) {
	r := newDocResolver(trackedFiles(t))
	for _, c := range []struct {
		file, text string
		kind       refKind
		target     string // file, package directory or "package name"; "" for no reference
		section    string // heading text, or the anchor of a refLink
		ok         bool
	}{
		{"lapack/x.go", "see (docs/errors.md#allocation).", refLink, "docs/errors.md", "allocation", true},
		{"lapack/x.go", "see (docs/errors.md#no-such).", refLink, "docs/errors.md", "no-such", false},
		{"lapack/x.go", "docs/no-such.md", refFile, "docs/no-such.md", "", false},
		{"bench/x.go", "(../shared/ANCHORS.md)", refFile, "../shared/ANCHORS.md", "", false},
		{"docs/x.md", "[CI](../CONTRIBUTING.md#ci)", refLink, "CONTRIBUTING.md", "ci", true},
		{"docs/x.md", "[x](#no-such)", refLink, "docs/x.md", "no-such", false},
		{"docs/x.md", "`a[i](p)` and `[x](no.md)`", refLink, "", "", true},
		{"docs/x.md", "[a](lapack.md), \"Conditioning\"", refSection, "docs/lapack.md", "Conditioning", true},
		{"x.go", "README, \"Speed\"", refSection, "README.md", "Speed", true},
		{"x.go", "README's \"No such\"", refSection, "README.md", "No such", false},
		{"x.go", "README \"Threads\"", refSection, "README.md", "Threads", false},
		{"x.go", "(README, Copies)", refSection, "README.md", "Copies", false},
		{"x.go", "\"Conditioning\" in docs/lapack.md", refSection, "docs/lapack.md", "Conditioning", true},
		{"x.go", "docs/bench/dist.md, \"Validation\"", refSection, "docs/bench/dist.md", "Validation", true},
		{"lapack/x.go", "see \"NaN and Inf\" in the package documentation", refPkgSection, "lapack", "NaN and Inf", true},
		{"lapack/x.go", "see the package documentation's \"No such\"", refPkgSection, "lapack", "No such", false},
		{"batch/x.go", "see \"Threads\" in package cblas", refPkgSection, "package cblas", "Threads", true},
		{"lapack/x.go", "(see the package documentation)", refPkgSection, "lapack", "", true},
		{"x.go", "writes bench.md", refFile, "", "", true},
	} {
		b := textBlock{text: c.text, lines: []int{1}, offs: []int{0}, md: strings.HasSuffix(c.file, ".md")}
		b.code = blankCode(b.text)
		refs := findDocRefs(c.file, []textBlock{b})
		if c.target == "" {
			if len(refs) != 0 {
				t.Errorf("%q: found %+v, want no reference", c.text, refs)
			}
			continue
		}
		i := slices.IndexFunc(refs, func(d docRef) bool { return d.kind == c.kind })
		if i < 0 {
			t.Errorf("%q: no reference of kind %d in %+v", c.text, c.kind, refs)
			continue
		}
		d := refs[i]
		if d.target != c.target || d.section != c.section {
			t.Errorf("%q: found %q, %q, want %q, %q", c.text, d.target, d.section, c.target, c.section)
		}
		if why := r.resolve(d); (why == "") != c.ok {
			t.Errorf("%q: resolve says %q, want ok = %v", c.text, why, c.ok)
		}
	}

	// A section name split over comment lines is read whole, at the line
	// where the reference starts.
	src := "package x\n\n// Measured: see\n// docs/blas.md, \"Other BLAS\n// libraries\".\nconst c = 1\n"
	f := filepath.Join(t.TempDir(), "x.go")
	if err := os.WriteFile(f, []byte(src), 0o666); err != nil {
		t.Fatal(err)
	}
	refs := findDocRefs("x.go", goText(t, f))
	i := slices.IndexFunc(refs, func(d docRef) bool { return d.kind == refSection })
	if i < 0 || refs[i].section != "Other BLAS libraries" || refs[i].line != 4 || r.resolve(refs[i]) != "" {
		t.Errorf("a reference over two comment lines: %+v", refs)
	}

	for in, want := range map[string]string{
		"Batches (`batch`)":                      "batches-batch",
		"How they are found: guard pages":        "how-they-are-found-guard-pages",
		"Intel MKL 2020.4 (Debian's `x`)":        "intel-mkl-20204-debians-x",
		"Communication per rank on a P x Q grid": "communication-per-rank-on-a-p-x-q-grid",
		"snake_case and-dash":                    "snake_case-and-dash",
	} {
		if got := slug(in); got != want {
			t.Errorf("slug(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestDocGo checks that every public package (those of levels in
// layers_test.go) keeps its package comment in a doc.go, and in no other
// file.
func TestDocGo(t *testing.T) {
	for dir := range levels {
		if dir == "" {
			dir = "."
		}
		fs, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		found := false
		for _, f := range fs {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			af, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.PackageClauseOnly|parser.ParseComments)
			if err != nil {
				t.Fatal(err)
			}
			switch isDoc := filepath.Base(f) == "doc.go"; {
			case isDoc && af.Doc == nil:
				t.Errorf("%s: no package comment", f)
			case isDoc:
				found = true
			case af.Doc != nil:
				t.Errorf("%s: a package comment outside doc.go", f)
			}
		}
		if !found {
			t.Errorf("%s: no doc.go with the package comment", dir)
		}
	}
}

// trackedFiles lists the repository's files, slash-separated and
// relative to its root (this directory): git's tracked files and the new
// ones it does not ignore where git answers, else every file below the
// root but .git.
func trackedFiles(t *testing.T) []string {
	if out, err := exec.Command("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard").Output(); err == nil && len(out) > 0 {
		var files []string
		for f := range strings.SplitSeq(strings.TrimSuffix(string(out), "\x00"), "\x00") {
			if _, err := os.Stat(f); err == nil { // deleted in the work tree, not yet in the index
				files = append(files, f)
			}
		}
		return files
	}
	var files []string
	err := filepath.WalkDir(".", func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if !d.IsDir() {
			files = append(files, filepath.ToSlash(p))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// A textBlock is text in which references are looked for: a run of
// comment lines joined with spaces, a string literal, or a Markdown
// paragraph. offs[i] is where the text of source line lines[i] starts.
type textBlock struct {
	text  string
	lines []int
	offs  []int
	md    bool   // Markdown: links are references
	code  string // for md, text with its code spans blanked
}

func (b *textBlock) add(s string, line int) {
	if len(b.lines) > 0 {
		b.text += " "
	}
	b.lines = append(b.lines, line)
	b.offs = append(b.offs, len(b.text))
	b.text += s
}

func (b textBlock) lineAt(off int) int {
	i, _ := slices.BinarySearch(b.offs, off+1)
	return b.lines[max(0, i-1)]
}

// goText returns the comments (consecutive // lines joined) and the
// string literals of a Go file.
func goText(t *testing.T, file string) []textBlock {
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	tf := fset.AddFile(file, -1, len(src))
	var s scanner.Scanner
	s.Init(tf, src, nil, scanner.ScanComments)
	var blocks []textBlock
	var cur *textBlock
	lastLine := -2
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		line := tf.Line(pos)
		switch tok {
		case token.COMMENT:
			if text, ok := strings.CutPrefix(lit, "//"); ok {
				if cur == nil || line != lastLine+1 {
					blocks = append(blocks, textBlock{})
					cur = &blocks[len(blocks)-1]
				}
				cur.add(strings.TrimSpace(text), line)
				lastLine = line
				continue
			}
			blocks = append(blocks, splitLines(strings.TrimSuffix(strings.TrimPrefix(lit, "/*"), "*/"), line))
		case token.STRING:
			if u, err := strconv.Unquote(lit); err == nil {
				blocks = append(blocks, splitLines(u, line))
			}
		}
		cur = nil
	}
	return blocks
}

func splitLines(s string, line int) textBlock {
	var b textBlock
	for i, l := range strings.Split(s, "\n") {
		b.add(strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(l), "*")), line+i)
	}
	return b
}

// commentedSource reports whether TestDocRefs reads a file's comment
// lines: shell, C, Fortran, assembly, YAML, Dockerfiles and scripts.
func commentedSource(f string) bool {
	switch path.Ext(f) {
	case ".sh", ".c", ".h", ".f90", ".s", ".yml", ".yaml":
		return true
	}
	return strings.HasPrefix(path.Base(f), "Dockerfile") || f == ".ci/run"
}

// lineComments returns the comment lines of a non-Go source file
// (starting with #, //, !, /* or *), consecutive ones joined.
func lineComments(t *testing.T, file string) []textBlock {
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if strings.HasPrefix(string(data), "// Code generated ") {
		return nil // generated assembly: its comments come from the generator, read as Go
	}
	var blocks []textBlock
	var cur *textBlock
	for i, l := range strings.Split(string(data), "\n") {
		l = strings.TrimSpace(l)
		text, ok := "", false
		for _, p := range []string{"//", "#", "!", "/*", "*"} {
			if rest, found := strings.CutPrefix(l, p); found {
				text, ok = strings.TrimSpace(strings.TrimSuffix(rest, "*/")), true
				break
			}
		}
		if !ok {
			cur = nil
			continue
		}
		if cur == nil {
			blocks = append(blocks, textBlock{})
			cur = &blocks[len(blocks)-1]
		}
		cur.add(text, i+1)
	}
	return blocks
}

// mdText returns the paragraphs of a Markdown file outside fenced code,
// each with a copy (code) in which code spans are blanked.
func mdText(t *testing.T, file string) []textBlock {
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var blocks []textBlock
	var cur *textBlock
	fence := ""
	for i, l := range strings.Split(string(data), "\n") {
		tl := strings.TrimSpace(l)
		if fence != "" {
			if strings.HasPrefix(tl, fence) {
				fence = ""
			}
			continue
		}
		if strings.HasPrefix(tl, "```") || strings.HasPrefix(tl, "~~~") {
			fence = tl[:3]
			cur = nil
			continue
		}
		if tl == "" {
			cur = nil
			continue
		}
		if cur == nil {
			blocks = append(blocks, textBlock{md: true})
			cur = &blocks[len(blocks)-1]
		}
		cur.add(tl, i+1)
	}
	for i := range blocks {
		blocks[i].code = blankCode(blocks[i].text)
	}
	return blocks
}

// blankCode replaces each code span of s, backticks included, with
// spaces.
func blankCode(s string) string {
	b := []byte(s)
	for i := 0; i < len(b); i++ {
		if b[i] != '`' {
			continue
		}
		n := 1
		for i+n < len(b) && b[i+n] == '`' {
			n++
		}
		end := strings.Index(s[i+n:], strings.Repeat("`", n))
		if end < 0 {
			i += n - 1
			continue
		}
		end += i + 2*n
		for j := i; j < end; j++ {
			b[j] = ' '
		}
		i = end - 1
	}
	return string(b)
}

type refKind int

const (
	refFile       refKind = iota // a file must exist
	refLink                      // a file, and an anchor in it when section != ""
	refSection                   // a heading of a file
	refPkgSection                // a heading of a package's doc comment, or the doc comment when section == ""
)

// A docRef is one reference: target is a repository path (a package's
// directory for refPkgSection), section a heading or an anchor.
type docRef struct {
	kind            refKind
	target, section string
	text            string
	line            int
}

const (
	mdPath  = `(?:\.{1,2}/)*(?:[\w.-]+/)*[\w-]+\.md`
	docName = `README(?:\.md)?|CONTRIBUTING(?:\.md)?|` + mdPath
	quoted  = `"([^"]+)"`
	pkgDoc  = `package(?: documentation| docs?| comment)`
)

var (
	mdLink = regexp.MustCompile(`\]\(([^()\s]+)\)`)
	pathRe = regexp.MustCompile(mdPath + `(?:#[\w-]+)?`)
	// a document, then a quoted section: README, "Speed"; [x](x.md), "S"
	docThenSection = regexp.MustCompile(`(?:\[[^\]]*\]\((` + mdPath + `)\)|\b(` + docName + `))(?:'s)?,?\s*` + quoted)
	// a section without quotes, alone after a document in parentheses:
	// (README, Speed)
	docThenBare = regexp.MustCompile(`\((?:see )?(?:the )?(` + docName + `)(?:'s)?,\s+([A-Z][^()";:,]*)\)`)
	// a quoted section, then the document: "Speed" in the README
	sectionThenDoc = regexp.MustCompile(quoted + `,? in (?:the )?(` + docName + `)\b`)
	// package documentation: "S" in package cblas; "S" in the package
	// documentation; the package documentation's "S"; the package
	// documentation alone
	sectionInPkg   = regexp.MustCompile(quoted + `,? in (?:package (\w+)\b|(?:the |this )?` + pkgDoc + `\b)`)
	pkgDocsSection = regexp.MustCompile(`\b(?:the |this )?` + pkgDoc + `'s? ` + quoted)
	pkgDocAlone    = regexp.MustCompile(`\b(?:the|this) ` + pkgDoc + `\b`)
)

// findDocRefs returns the references in the blocks of file.
func findDocRefs(file string, blocks []textBlock) []docRef {
	dir := path.Dir(file)
	isGo := strings.HasSuffix(file, ".go")
	var refs []docRef
	for _, b := range blocks {
		text := b.text
		if b.md {
			text = b.code
		}
		add := func(kind refKind, target, section string, m []int) {
			refs = append(refs, docRef{kind, target, section, strings.Join(strings.Fields(b.text[m[0]:m[1]]), " "), b.lineAt(m[0])})
		}
		var taken [][]int // spans of links, whose paths are not looked at again
		if b.md {
			for _, m := range mdLink.FindAllStringSubmatchIndex(text, -1) {
				target := text[m[2]:m[3]]
				if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				p, anchor, _ := strings.Cut(target, "#")
				if p == "" {
					p = file
				} else {
					p = path.Join(dir, p)
				}
				add(refLink, p, anchor, m)
				taken = append(taken, m)
			}
		}
		for _, m := range pathRe.FindAllStringIndex(text, -1) {
			if m[0] > 0 && strings.ContainsAny(text[m[0]-1:m[0]], "/.-_") || inside(taken, m) {
				continue
			}
			p, anchor, _ := strings.Cut(text[m[0]:m[1]], "#")
			if !strings.Contains(p, "/") && !unicode.IsUpper(rune(p[0])) {
				continue // bench.md: a name a command writes, not a reference
			}
			kind := refFile
			if anchor != "" {
				kind = refLink
			}
			add(kind, resolvePath(dir, p), anchor, m)
		}
		// Quoted sections are read in the text with its code spans.
		for _, m := range docThenSection.FindAllStringSubmatchIndex(b.text, -1) {
			doc := ""
			if m[2] >= 0 {
				doc = path.Join(dir, b.text[m[2]:m[3]])
			} else {
				doc = resolvePath(dir, b.text[m[4]:m[5]])
			}
			add(refSection, doc, b.text[m[6]:m[7]], m)
		}
		for _, m := range docThenBare.FindAllStringSubmatchIndex(text, -1) {
			add(refSection, resolvePath(dir, text[m[2]:m[3]]), text[m[4]:m[5]], m)
		}
		for _, m := range sectionThenDoc.FindAllStringSubmatchIndex(b.text, -1) {
			add(refSection, resolvePath(dir, b.text[m[4]:m[5]]), b.text[m[2]:m[3]], m)
		}
		taken = nil // spans of package sections, not counted again alone
		for _, m := range sectionInPkg.FindAllStringSubmatchIndex(b.text, -1) {
			switch {
			case m[4] >= 0:
				add(refPkgSection, "package "+b.text[m[4]:m[5]], b.text[m[2]:m[3]], m)
			case isGo:
				add(refPkgSection, dir, b.text[m[2]:m[3]], m)
			}
			taken = append(taken, m)
		}
		if isGo {
			for _, m := range pkgDocsSection.FindAllStringSubmatchIndex(b.text, -1) {
				add(refPkgSection, dir, b.text[m[2]:m[3]], m)
				taken = append(taken, m)
			}
			for _, m := range pkgDocAlone.FindAllStringIndex(b.text, -1) {
				if !inside(taken, m) {
					add(refPkgSection, dir, "", m)
				}
			}
		}
	}
	return refs
}

// inside reports whether span m lies within one of spans.
func inside(spans [][]int, m []int) bool {
	return slices.ContainsFunc(spans, func(s []int) bool { return m[0] >= s[0] && m[1] <= s[1] })
}

// resolvePath turns a document's name as written in a file of dir into
// a repository path: README and CONTRIBUTING are the root's .md files; a
// path is taken relative to dir when it exists there, else to the root.
func resolvePath(dir, p string) string {
	switch p {
	case "README", "CONTRIBUTING":
		return p + ".md"
	}
	if rel := path.Join(dir, p); dir != "." && fileExists(rel) {
		return rel
	}
	return path.Clean(p)
}

func fileExists(p string) bool {
	_, err := os.Stat(filepath.FromSlash(p))
	return err == nil
}

// A docResolver knows the repository's files, the headings of its
// Markdown files and of its Go packages' doc comments.
type docResolver struct {
	tracked  map[string]bool // files and the directories that hold them
	anchors  map[string]map[string]bool
	pkgDirs  map[string][]string // package name -> directories
	pkgHeads map[string]map[string]bool
	pkgDoc   map[string]bool
}

func newDocResolver(files []string) *docResolver {
	r := &docResolver{tracked: map[string]bool{".": true}, anchors: map[string]map[string]bool{}, pkgDirs: map[string][]string{}, pkgHeads: map[string]map[string]bool{}, pkgDoc: map[string]bool{}}
	for _, f := range files {
		for p := f; p != "."; p = path.Dir(p) {
			r.tracked[p] = true
		}
	}
	return r
}

// resolve returns why ref does not resolve, or "".
func (r *docResolver) resolve(ref docRef) string {
	switch ref.kind {
	case refFile, refLink, refSection:
		if strings.HasPrefix(ref.target, "../") || !r.tracked[ref.target] {
			return ref.target + " is not a file of the repository"
		}
		if ref.section == "" {
			return ""
		}
		if !strings.HasSuffix(ref.target, ".md") {
			return ref.target + " is not Markdown: it has no sections"
		}
		want := ref.section
		if ref.kind == refSection {
			want = slug(ref.section)
		}
		if !r.mdAnchors(ref.target)[want] {
			return ref.target + " has no heading " + strconv.Quote(want)
		}
	case refPkgSection:
		dirs := []string{ref.target}
		if name, ok := strings.CutPrefix(ref.target, "package "); ok {
			if dirs = r.packageDirs(name); len(dirs) == 0 {
				return "no package " + name + " in the module"
			}
		}
		for _, d := range dirs {
			heads, hasDoc := r.packageHeadings(d)
			if ref.section == "" && hasDoc || heads[slug(ref.section)] {
				return ""
			}
		}
		if ref.section == "" {
			return strings.Join(dirs, ", ") + ": the package has no doc comment"
		}
		return strings.Join(dirs, ", ") + ": the package documentation has no heading " + strconv.Quote(ref.section)
	}
	return ""
}

// mdAnchors returns the anchors GitHub gives the headings of a Markdown
// file.
func (r *docResolver) mdAnchors(file string) map[string]bool {
	if a, ok := r.anchors[file]; ok {
		return a
	}
	a := map[string]bool{}
	r.anchors[file] = a
	data, err := os.ReadFile(filepath.FromSlash(file))
	if err != nil {
		return a
	}
	seen := map[string]int{}
	fence := ""
	for l := range strings.SplitSeq(string(data), "\n") {
		tl := strings.TrimSpace(l)
		switch {
		case fence != "":
			if strings.HasPrefix(tl, fence) {
				fence = ""
			}
			continue
		case strings.HasPrefix(tl, "```") || strings.HasPrefix(tl, "~~~"):
			fence = tl[:3]
			continue
		}
		h := strings.TrimLeft(l, "#")
		if len(h) == len(l) || len(l)-len(h) > 6 || h != "" && h[0] != ' ' {
			continue
		}
		s := slug(strings.TrimSpace(strings.TrimRight(strings.TrimSpace(h), "#")))
		if n := seen[s]; n > 0 {
			a[s+"-"+strconv.Itoa(n)] = true
		} else {
			a[s] = true
		}
		seen[s]++
	}
	return a
}

// slug is GitHub's anchor for a heading: lower case, spaces to '-',
// every other character but letters, digits, '-' and '_' dropped.
func slug(h string) string {
	var b strings.Builder
	for _, c := range strings.ToLower(h) {
		switch {
		case c == ' ':
			b.WriteByte('-')
		case c == '-' || c == '_' || unicode.IsLetter(c) || unicode.IsDigit(c) || unicode.Is(unicode.M, c):
			b.WriteRune(c)
		}
	}
	return b.String()
}

// packageDirs returns the directories of the module's packages named
// name, the one whose directory is named so first.
func (r *docResolver) packageDirs(name string) []string {
	if len(r.pkgDirs) == 0 {
		for d := range r.tracked {
			if n := packageName(d); n != "" {
				r.pkgDirs[n] = append(r.pkgDirs[n], d)
			}
		}
		for _, ds := range r.pkgDirs {
			slices.SortFunc(ds, func(a, b string) int { return len(a) - len(b) })
		}
	}
	return r.pkgDirs[name]
}

// packageName returns the package clause of dir's Go files but tests, or
// "".
func packageName(dir string) string {
	fs, _ := filepath.Glob(filepath.Join(filepath.FromSlash(dir), "*.go"))
	for _, f := range fs {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		if af, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.PackageClauseOnly); err == nil {
			return af.Name.Name
		}
	}
	return ""
}

// packageHeadings returns the slugs of the headings of dir's package doc
// comment, and whether it has one.
func (r *docResolver) packageHeadings(dir string) (map[string]bool, bool) {
	if h, ok := r.pkgHeads[dir]; ok {
		return h, r.pkgDoc[dir]
	}
	heads := map[string]bool{}
	r.pkgHeads[dir] = heads
	fs, _ := filepath.Glob(filepath.Join(filepath.FromSlash(dir), "*.go"))
	for _, f := range fs {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.PackageClauseOnly|parser.ParseComments)
		if err != nil || af.Doc == nil {
			continue
		}
		r.pkgDoc[dir] = true
		for _, b := range new(comment.Parser).Parse(af.Doc.Text()).Content {
			if h, ok := b.(*comment.Heading); ok {
				heads[slug(plainText(h.Text))] = true
			}
		}
	}
	return heads, r.pkgDoc[dir]
}

func plainText(ts []comment.Text) string {
	var b strings.Builder
	for _, t := range ts {
		switch t := t.(type) {
		case comment.Plain:
			b.WriteString(string(t))
		case comment.Italic:
			b.WriteString(string(t))
		case *comment.Link:
			b.WriteString(plainText(t.Text))
		case *comment.DocLink:
			b.WriteString(plainText(t.Text))
		}
	}
	return b.String()
}
