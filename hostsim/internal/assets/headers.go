package assets

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// headerRule is one block of a _headers file: a URL pattern and the headers
// it sets or detaches (`! Name`).
type headerRule struct {
	pattern *regexp.Regexp
	set     [][2]string
	detach  []string
}

// parseHeaders reads a _headers file as Workers Static Assets does: a
// pattern line (a path with `*` splats and `:name` placeholders) followed by
// indented `Name: value` lines; `#` starts a comment. Problems are reported
// with line numbers, all at once.
func parseHeaders(text string) ([]headerRule, error) {
	var rules []headerRule
	var problems []string
	for i, raw := range strings.Split(text, "\n") {
		line := strings.TrimRight(raw, "\r")
		trimmed := strings.TrimSpace(line)
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		indented := line[0] == ' ' || line[0] == '\t'
		if !indented {
			if !strings.HasPrefix(trimmed, "/") {
				problems = append(problems, fmt.Sprintf("line %d: a rule must start with a path, got %q", i+1, trimmed))
				continue
			}
			rules = append(rules, headerRule{pattern: headerPattern(trimmed)})
			continue
		}
		if len(rules) == 0 {
			problems = append(problems, fmt.Sprintf("line %d: header outside a rule", i+1))
			continue
		}
		r := &rules[len(rules)-1]
		if name, ok := strings.CutPrefix(trimmed, "!"); ok {
			r.detach = append(r.detach, strings.TrimSpace(name))
			continue
		}
		name, value, ok := strings.Cut(trimmed, ":")
		if !ok || strings.TrimSpace(name) == "" {
			problems = append(problems, fmt.Sprintf("line %d: expected `Name: value`", i+1))
			continue
		}
		r.set = append(r.set, [2]string{strings.TrimSpace(name), strings.TrimSpace(value)})
	}
	if len(problems) > 0 {
		return nil, fmt.Errorf("assets: %s: %s", headersFile, strings.Join(problems, "; "))
	}
	return rules, nil
}

var placeholder = regexp.MustCompile(`:[A-Za-z]\w*`)

// headerPattern compiles a path with splats (any characters) and
// placeholders (one path segment).
func headerPattern(p string) *regexp.Regexp {
	var b strings.Builder
	b.WriteString("^")
	for i, part := range strings.Split(p, "*") {
		if i > 0 {
			b.WriteString(".*")
		}
		quoted := regexp.QuoteMeta(part)
		b.WriteString(placeholder.ReplaceAllString(quoted, `[^/]+`))
	}
	b.WriteString("$")
	return regexp.MustCompile(b.String())
}

// loadHeaders reads dir/_headers; a missing file means no rules.
func loadHeaders(dir string) ([]headerRule, error) {
	b, err := os.ReadFile(filepath.Join(dir, headersFile))
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("assets: %w", err)
	}
	return parseHeaders(string(b))
}

// applyHeaders sets the headers of every rule matching path: a header named
// by several rules gets their values joined with ", ", and replaces the
// asset server's own header of that name (as Cache-Control is replaced).
func applyHeaders(rules []headerRule, path string, h http.Header) {
	values := map[string][]string{}
	var order []string
	var detach []string
	for _, r := range rules {
		if !r.pattern.MatchString(path) {
			continue
		}
		for _, kv := range r.set {
			key := http.CanonicalHeaderKey(kv[0])
			if _, seen := values[key]; !seen {
				order = append(order, key)
			}
			values[key] = append(values[key], kv[1])
		}
		detach = append(detach, r.detach...)
	}
	for _, k := range order {
		h.Set(k, strings.Join(values[k], ", "))
	}
	for _, k := range detach {
		h.Del(k)
	}
}
