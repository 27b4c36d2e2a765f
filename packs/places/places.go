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
	"fmt"

	"github.com/emojisearch/emojisearch/packs/internal/sourcehash"
	"github.com/emojisearch/emojisearch/packs/internal/wordlines"
)

//go:embed data/*.txt
var data embed.FS

// Load returns the words of every locale that has a file: locale -> flag
// emoji -> words in file order. A file must be named after one of locales.
func Load(locales []string) (map[string]map[string][]string, error) {
	return wordlines.Load(data, "data/*.txt", "places", locales, regionKey)
}

// Parse reads one source file: flag emoji -> words. A line needs a region
// code of two letters A-Z and at least one word; a region may not repeat.
func Parse(name, text string) (map[string][]string, error) {
	return wordlines.Parse(name, text, regionKey)
}

func regionKey(code string) (flag, label string, err error) {
	flag, ok := Flag(code)
	if !ok {
		return "", "", fmt.Errorf("%q is not a region code of two capital letters", code)
	}
	return flag, "region " + code, nil
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
