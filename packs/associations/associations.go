// Package associations reads what people type when they look for an emoji
// beyond its dictionary names (packs/FORMAT.md, "Associations"): other names
// ("short stack" for 🥞), kinds and instances, what it stands for in chat ("i'm
// dead" for 💀), the activities, occasions and feelings it is sent for.
// CLDR's keywords name what an emoji shows; people search what it means to
// them. Written by us as product content, per locale; the pack build adds
// the words to the emoji's extension rows as aliases, below every
// dictionary and editorial phrase.
//
// Source files, data/<locale>.txt, one emoji per line:
//
//	# comment
//	🥞 short stack | griddle cake | brunch
package associations

import (
	"embed"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/emojisearch/emojisearch/packs/internal/sourcehash"
	"github.com/emojisearch/emojisearch/packs/internal/wordlines"
)

//go:embed data/*.txt
var data embed.FS

// Load returns the words of every locale that has a file: locale -> emoji
// (without U+FE0F, as the pack build keys emoji) -> words in file order. A
// file must be named after one of locales.
func Load(locales []string) (map[string]map[string][]string, error) {
	return wordlines.Load(data, "data/*.txt", "associations", locales, emojiKey)
}

// Parse reads one source file: emoji -> words. A line starts with an emoji
// (not a word) and needs at least one word; an emoji may not repeat.
func Parse(name, text string) (map[string][]string, error) {
	return wordlines.Parse(name, text, emojiKey)
}

// emojiKey accepts a field that starts with a character outside ASCII or
// a keycap base and holds no ASCII letter (so a forgotten emoji is not
// taken for one); the build checks it is one of the packs' emoji.
func emojiKey(field string) (key, label string, err error) {
	r, _ := utf8.DecodeRuneInString(field)
	if field == "" || strings.ContainsFunc(field, isASCIILetter) || (r < 0x80 && !strings.ContainsRune("#*0123456789", r)) {
		return "", "", fmt.Errorf("%q is not an emoji", field)
	}
	key = strings.ReplaceAll(field, "\uFE0F", "")
	return key, "emoji " + field, nil
}

func isASCIILetter(r rune) bool { return r|0x20 >= 'a' && r|0x20 <= 'z' }

// Hash identifies the sources ("sha256:<hex>" over the file names and
// bytes, in order), recorded under inputs in manifest.json.
func Hash() string { return sourcehash.Of(data, "data/*.txt") }
