// Package emoticons reads the emoticons and kaomoji people type for an emoji
// beyond emojibase's own (packs/FORMAT.md, "Emoticons"): "^_^", "-_-", ";_;",
// "(y)", "¯\_(ツ)_/¯". Written by us as product content; the pack build adds
// them to the English extension rows as aliases, where the engine matches
// symbolic phrases on the whole raw query (every locale searches English).
//
// Source (emoticons.txt): one emoji per line, then its emoticons separated by
// spaces; "#" starts a comment line.
package emoticons

import (
	_ "embed"
	"errors"
	"fmt"
	"strings"

	"github.com/emojisearch/emojisearch/packs/internal/sourcehash"
)

//go:embed emoticons.txt
var source string

// Load parses the committed source: emoji (without U+FE0F) -> emoticons in
// file order.
func Load() (map[string][]string, error) { return Parse("emoticons.txt", source) }

// Hash identifies the source, recorded under inputs in manifest.json.
func Hash() string { return sourcehash.OfBytes("emoticons.txt", []byte(source)) }

// Parse reads one source. An emoji needs at least one emoticon and may not
// repeat; an emoticon may not hold "|", which the pack format cannot store.
func Parse(name, text string) (map[string][]string, error) {
	out := map[string][]string{}
	var errs []error
	for i, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		where := fmt.Sprintf("%s:%d", name, i+1)
		emoji := strings.ReplaceAll(f[0], "\uFE0F", "")
		switch _, dup := out[emoji]; {
		case len(f) < 2:
			errs = append(errs, fmt.Errorf("%s: %s has no emoticons", where, f[0]))
		case dup:
			errs = append(errs, fmt.Errorf("%s: %s twice", where, emoji))
		case strings.Contains(line, "|"):
			errs = append(errs, fmt.Errorf("%s: an emoticon with \"|\" cannot be stored", where))
		default:
			out[emoji] = f[1:]
		}
	}
	return out, errors.Join(errs...)
}
