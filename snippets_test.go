package lapis_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestSnippets checks that the Go snippets of README.md and docs/ are cut
// from Example functions that go test runs: a snippet names its Example
// (as `ExampleName`, with `pkg/example_test.go` when the name is in
// several files) in the five lines before it, and every code line of
// the snippet (trailing comments dropped) is a line of that function.
// Every snippet of README.md must name one.
func TestSnippets(t *testing.T) {
	examples := exampleBodies(t)
	docs, _ := filepath.Glob("docs/*.md")
	for _, file := range append([]string{"README.md"}, docs...) {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(data), "\n")
		for i := 0; i < len(lines); i++ {
			if strings.TrimSpace(lines[i]) != "```go" {
				continue
			}
			start := i
			var code []string
			for i++; i < len(lines) && strings.TrimSpace(lines[i]) != "```"; i++ {
				code = append(code, lines[i])
			}
			ctx := strings.Join(lines[max(0, start-5):start], " ")
			names := exampleRef.FindAllStringSubmatch(ctx, -1)
			if len(names) == 0 {
				if file == "README.md" {
					t.Errorf("%s:%d: snippet names no Example function", file, start+1)
				}
				continue
			}
			ref := names[len(names)-1]
			pkg, name := ref[1], ref[2]
			if pkg == "" {
				pkg = filePkg.FindString(ctx)
			}
			body, ok := findExample(examples, strings.TrimSuffix(pkg, "/example_test.go"), name)
			if !ok {
				t.Errorf("%s:%d: %s (%s) is not an Example function of the module", file, start+1, name, pkg)
				continue
			}
			have := map[string]bool{}
			for _, l := range strings.Split(body, "\n") {
				have[codeLine(l)] = true
			}
			for k, l := range code {
				if c := codeLine(l); c != "" && !have[c] {
					t.Errorf("%s:%d: line %q is not in %s", file, start+2+k, c, name)
				}
			}
		}
	}
}

var (
	exampleRef = regexp.MustCompile("(?:`([\\w/]+/example_test\\.go)`,?\\s*)?`(Example\\w*)`")
	filePkg    = regexp.MustCompile(`[\w/]+/example_test\.go`)
	exampleFn  = regexp.MustCompile(`(?m)^func (Example\w*)\(\) \{\n((?:.*\n)*?)^\}`)
)

// codeLine is l without indentation and trailing comment; "" for a
// comment or blank line.
func codeLine(l string) string {
	l = strings.TrimSpace(l)
	quoted := false
	for i := 0; i < len(l); i++ {
		switch {
		case l[i] == '\\' && quoted:
			i++
		case l[i] == '"':
			quoted = !quoted
		case !quoted && strings.HasPrefix(l[i:], "//"):
			return strings.TrimSpace(l[:i])
		}
	}
	return l
}

// exampleBodies maps "dir/Name" to the body of every Example function of
// the module's example_test.go files.
func exampleBodies(t *testing.T) map[string]string {
	m := map[string]string{}
	err := filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, f := range exampleFn.FindAllStringSubmatch(string(data), -1) {
			m[filepath.Dir(path)+"/"+f[1]] = f[2]
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// findExample returns the body of Example name in directory dir, or in
// the only directory that has it when dir is "".
func findExample(m map[string]string, dir, name string) (string, bool) {
	if dir != "" {
		b, ok := m[dir+"/"+name]
		return b, ok
	}
	var found []string
	for k, b := range m {
		if strings.HasSuffix(k, "/"+name) {
			found = append(found, b)
		}
	}
	if len(found) != 1 {
		return "", false
	}
	return found[0], true
}
