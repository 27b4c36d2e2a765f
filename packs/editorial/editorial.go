// Package editorial reads the editorial phrase layer (packs/FORMAT.md,
// "Editorial phrases"): everyday concepts people search and react with,
// written by us as product content, each with its emoji in order and what
// people type for it in every pack locale, including informal spellings and
// romanised forms. The pack build puts them in the extension packs
// (fields editorial and editorial_more) and in the part indexes
// index.<locale>.editorial.bin.
//
// Source files (data/*.txt), one concept per block:
//
//	# comment
//	@thanks 🙏 🥹 🤗
//	en thanks | thank you | thx | ty
//	zh 谢谢 | 多谢 | 3q
//	... one line per pack locale, in any order
package editorial

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/emojisearch/emojisearch/packs/internal/sourcehash"
)

//go:embed data/*.txt
var data embed.FS

// Concept is one editorial concept.
type Concept struct {
	ID      string              // slug, unique over all files
	Emoji   []string            // in order: the first is the best answer
	Phrases map[string][]string // by locale: what people type for it
	Source  string              // file:line of the "@" line
}

// Limits of a concept.
const (
	MaxEmoji        = 6
	MaxPhraseLength = 48 // characters
)

// Load parses and validates every source file for the locales.
func Load(locales []string) ([]Concept, error) {
	names, err := fs.Glob(data, "data/*.txt")
	if err != nil {
		return nil, err
	}
	var all []Concept
	var errs []error
	for _, n := range names { // sorted
		b, err := data.ReadFile(n)
		if err != nil {
			return nil, err
		}
		cs, err := Parse(path.Base(n), string(b))
		if err != nil {
			errs = append(errs, err)
		}
		all = append(all, cs...)
	}
	if err := Validate(all, locales); err != nil {
		errs = append(errs, err)
	}
	return all, errors.Join(errs...)
}

// Hash identifies the sources ("sha256:<hex>" over the file names and
// bytes, in order), recorded under inputs in manifest.json.
func Hash() string { return sourcehash.Of(data, "data/*.txt") }

// Parse reads one source file.
func Parse(name, text string) ([]Concept, error) {
	var out []Concept
	var errs []error
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		where := fmt.Sprintf("%s:%d", name, i+1)
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "@"):
			f := strings.Fields(line[1:])
			if len(f) < 2 {
				errs = append(errs, fmt.Errorf("%s: a concept needs an id and at least one emoji", where))
				continue
			}
			out = append(out, Concept{ID: f[0], Emoji: f[1:], Phrases: map[string][]string{}, Source: where})
		default:
			loc, rest, ok := strings.Cut(line, " ")
			if !ok || len(out) == 0 {
				errs = append(errs, fmt.Errorf("%s: expected \"@id emoji...\" or \"locale phrase | phrase\"", where))
				continue
			}
			c := &out[len(out)-1]
			if _, dup := c.Phrases[loc]; dup {
				errs = append(errs, fmt.Errorf("%s: %s: locale %s twice", where, c.ID, loc))
			}
			var phrases []string
			for _, p := range strings.Split(rest, "|") {
				phrases = append(phrases, strings.TrimSpace(p))
			}
			c.Phrases[loc] = phrases
		}
	}
	return out, errors.Join(errs...)
}

// Validate checks concepts: unique ids, 1..MaxEmoji distinct emoji, and for
// every locale (no other) at least one phrase, each non-empty, at most
// MaxPhraseLength characters, once per concept and locale.
func Validate(cs []Concept, locales []string) error {
	var errs []error
	bad := func(c *Concept, format string, args ...any) {
		errs = append(errs, fmt.Errorf("%s: %s: "+format, append([]any{c.Source, c.ID}, args...)...))
	}
	ids := map[string]bool{}
	for i := range cs {
		c := &cs[i]
		if ids[c.ID] {
			bad(c, "duplicate id")
		}
		ids[c.ID] = true
		if len(c.Emoji) > MaxEmoji {
			bad(c, "%d emoji, at most %d", len(c.Emoji), MaxEmoji)
		}
		for j, e := range c.Emoji {
			if slices.Contains(c.Emoji[:j], e) {
				bad(c, "emoji %s twice", e)
			}
		}
		for loc := range c.Phrases {
			if !slices.Contains(locales, loc) {
				bad(c, "unknown locale %q", loc)
			}
		}
		for _, loc := range locales {
			list, ok := c.Phrases[loc]
			if !ok || len(list) == 0 {
				bad(c, "no phrases for %s", loc)
			}
			seen := map[string]bool{}
			for _, p := range list {
				k := strings.ToLower(p)
				switch {
				case p == "":
					bad(c, "%s: empty phrase", loc)
				case utf8.RuneCountInString(p) > MaxPhraseLength:
					bad(c, "%s: phrase %q is longer than %d characters", loc, p, MaxPhraseLength)
				case seen[k]:
					bad(c, "%s: phrase %q twice", loc, p)
				case symbolic(p):
					bad(c, "%s: phrase %q is mostly punctuation (emoticons are not editorial phrases)", loc, p)
				}
				seen[k] = true
			}
		}
	}
	return errors.Join(errs...)
}

// symbolic reports a phrase at least half ASCII punctuation (":)", "a+"):
// the engine matches such phrases as emoticons on their raw text, which is
// not what an editorial phrase is for.
func symbolic(p string) bool {
	punct := 0
	for _, c := range []byte(p) {
		if c < 0x80 && strings.IndexByte("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", c) >= 0 {
			punct++
		}
	}
	return punct > 0 && punct*2 >= len(strings.TrimSpace(p))
}
