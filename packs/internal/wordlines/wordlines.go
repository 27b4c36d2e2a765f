// Package wordlines reads the hand-written word files of the pack build
// (packs/places, packs/associations): per locale, one line per key (a
// region code, an emoji) followed by its words separated by "|". The
// packages that own the files say what a key is; this one keeps the line
// format and its errors in one place.
package wordlines

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
)

// Key turns the first field of a line into its map key, or says why the
// field is not one. label names the key in errors ("region CL").
type Key func(field string) (key, label string, err error)

// Parse reads one file: key -> words in line order. Blank lines and
// comments (isComment) are skipped; a key may not repeat and needs a word.
func Parse(name, text string, key Key) (map[string][]string, error) {
	out := map[string][]string{}
	var errs []error
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || isComment(line) {
			continue
		}
		where := fmt.Sprintf("%s:%d", name, i+1)
		field, rest, _ := strings.Cut(line, " ")
		k, label, err := key(field)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", where, err))
			continue
		}
		if _, dup := out[k]; dup {
			errs = append(errs, fmt.Errorf("%s: %s twice", where, label))
			continue
		}
		var words []string
		for _, w := range strings.Split(rest, "|") {
			if w = strings.TrimSpace(w); w != "" {
				words = append(words, w)
			}
		}
		if len(words) == 0 {
			errs = append(errs, fmt.Errorf("%s: %s has no words", where, label))
			continue
		}
		out[k] = words
	}
	return out, errors.Join(errs...)
}

// isComment: a line starting with # is a comment, but for the keycap
// emoji #️⃣ (# then U+FE0F or U+20E3).
func isComment(line string) bool {
	return strings.HasPrefix(line, "#") && !strings.HasPrefix(line, "#\uFE0F") && !strings.HasPrefix(line, "#\u20E3")
}

// Load parses every file of fsys matching pattern, each named
// <locale>.txt after one of locales: locale -> key -> words. pkg prefixes
// the errors ("places: xx.txt: not a pack locale").
func Load(fsys fs.FS, pattern, pkg string, locales []string, key Key) (map[string]map[string][]string, error) {
	names, err := fs.Glob(fsys, pattern)
	if err != nil {
		return nil, err
	}
	out := map[string]map[string][]string{}
	var errs []error
	for _, n := range names {
		b, err := fs.ReadFile(fsys, n)
		if err != nil {
			return nil, err
		}
		base := path.Base(n)
		loc := strings.TrimSuffix(base, ".txt")
		if !slices.Contains(locales, loc) {
			errs = append(errs, fmt.Errorf("%s: %s: not a pack locale", pkg, base))
			continue
		}
		words, err := Parse(base, string(b), key)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", pkg, err))
		}
		out[loc] = words
	}
	return out, errors.Join(errs...)
}
