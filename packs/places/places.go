// Package places reads what people call countries and territories and their
// people, per pack locale (packs/FORMAT.md, "Places"): demonyms ("chilean",
// "iraqi", "filipino") and the common names CLDR's flag names lack
// ("holland", "burma", "ivory coast"). People search flags that way ("turkish
// flag"); CLDR annotations name the country only. Written by us as product
// content; the pack build adds the words to the flags' extension rows as
// aliases.
//
// Source files, data/<locale>.txt, one region per line:
//
//	# comment
//	CL chilean
//	NL dutch | holland
package places

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/emojisearch/emojisearch/packs/internal/sourcehash"
)

//go:embed data/*.txt
var data embed.FS

// Load returns the words of every locale that has a file: locale -> flag
// emoji -> words in file order. A file must be named after one of locales.
func Load(locales []string) (map[string]map[string][]string, error) {
	names, err := fs.Glob(data, "data/*.txt")
	if err != nil {
		return nil, err
	}
	out := map[string]map[string][]string{}
	var errs []error
	for _, n := range names {
		b, err := data.ReadFile(n)
		if err != nil {
			return nil, err
		}
		loc := strings.TrimSuffix(path.Base(n), ".txt")
		if !slices.Contains(locales, loc) {
			errs = append(errs, fmt.Errorf("places: %s: not a pack locale", path.Base(n)))
			continue
		}
		words, err := Parse(path.Base(n), string(b))
		errs = append(errs, err)
		out[loc] = words
	}
	return out, errors.Join(errs...)
}

// Parse reads one source file: flag emoji -> words. A line needs a region
// code of two letters A-Z and at least one word; a region may not repeat.
func Parse(name, text string) (map[string][]string, error) {
	out := map[string][]string{}
	var errs []error
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		where := fmt.Sprintf("%s:%d", name, i+1)
		code, rest, _ := strings.Cut(line, " ")
		flag, ok := Flag(code)
		if !ok {
			errs = append(errs, fmt.Errorf("%s: %q is not a region code of two capital letters", where, code))
			continue
		}
		if _, dup := out[flag]; dup {
			errs = append(errs, fmt.Errorf("%s: region %s twice", where, code))
			continue
		}
		var words []string
		for _, w := range strings.Split(rest, "|") {
			if w = strings.TrimSpace(w); w != "" {
				words = append(words, w)
			}
		}
		if len(words) == 0 {
			errs = append(errs, fmt.Errorf("%s: region %s has no words", where, code))
			continue
		}
		out[flag] = words
	}
	return out, errors.Join(errs...)
}

// Flag returns the flag emoji of a region code ("CL" -> 🇨🇱): its two
// regional indicator symbols.
func Flag(code string) (string, bool) {
	if len(code) != 2 || code[0] < 'A' || code[0] > 'Z' || code[1] < 'A' || code[1] > 'Z' {
		return "", false
	}
	return string([]rune{0x1F1E6 + rune(code[0]-'A'), 0x1F1E6 + rune(code[1]-'A')}), true
}

// Hash identifies the sources ("sha256:<hex>" over the file names and
// bytes, in order), recorded under inputs in manifest.json.
func Hash() string { return sourcehash.Of(data, "data/*.txt") }
