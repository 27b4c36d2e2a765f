// Package index is the alias engine's in-memory dictionary index: phrases of
// every loaded pack, an exact/prefix term table, stem and character n-gram
// tables, and the search over them (search.go).
package index

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/emojisearch/emojisearch/engine/internal/textnorm"
	"github.com/emojisearch/emojisearch/packs/packfmt"
)

// MaxUnits is the number of query units (words or segments) scored; more are ignored.
const MaxUnits = 8

// Entry is one emoji.
type Entry struct {
	ID, Emoji string
	Group     int8
	Subgroup  int16
	Version   float32
	Skins     bool
	Prior     uint8
	Family    int32 // entry index of the family head (itself when none)
}

// Phrase is one normalized searchable phrase of one emoji in one locale.
type Phrase struct {
	Text  string
	Entry int32
	Field uint8
	Loc   uint8
	NTok  uint8
}

// Index is immutable after Build and safe for concurrent searches.
type Index struct {
	Entries []Entry
	Locales []string   // locale index -> locale
	Labels  [][]string // [locale][entry] display label ("" when the locale has none)
	Groups  [][]string // [locale][group] group label
	Phrases []Phrase
	Weights [packfmt.NumStoredFields + 1]float32 // by field; typo last
	English float32                              // factor for English phrases under another locale

	byKey   map[string]int32 // emoji key (no FE0F, no skin tones) -> entry
	termID  map[string]int32
	terms   []string // sorted
	sigs    []uint64 // character signature of terms[i] (typo filter)
	postOff []uint32 // postings of terms[i]: post[postOff[i]:postOff[i+1]]
	post    []uint32 // phrase ids
	stems   map[string][]uint32
	grams   map[string][]uint32 // unigrams and bigrams of unspaced phrase text
	maxWord int                 // longest unspaced term, in characters
	symbols map[string][]Symbol // emoticons and other punctuation phrases, raw
}

// Symbol is an emoticon-like phrase (":)", "<3") matched on its raw text.
type Symbol struct {
	Entry int32
	Field uint8
	Loc   uint8
}

// SymbolKey is the lookup form of a raw emoticon: trimmed, lowercased, single spaces.
func SymbolKey(raw string) string {
	if len(raw) > 16 {
		return ""
	}
	return strings.ToLower(strings.Join(strings.Fields(raw), " "))
}

// Symbols returns the emoticon phrases equal to a raw query.
func (ix *Index) Symbols(raw string) []Symbol { return ix.symbols[SymbolKey(raw)] }

// Build indexes packs. Core packs define the emoji; English core must be present.
func Build(packs []*packfmt.Pack) (*Index, error) {
	ix := &Index{byKey: map[string]int32{}, termID: map[string]int32{}, stems: map[string][]uint32{}, grams: map[string][]uint32{}, symbols: map[string][]Symbol{}}
	w := packfmt.DefaultWeights
	for f := range packfmt.NumStoredFields {
		ix.Weights[f] = float32(w[packfmt.Fields[f]])
	}
	ix.Weights[packfmt.FieldTypo] = float32(w["typo"])
	ix.English = float32(w["english"])

	// Entries come from the core packs, English first.
	order := slices.Clone(packs)
	slices.SortStableFunc(order, func(a, b *packfmt.Pack) int { return rank(a) - rank(b) })
	if len(order) == 0 || order[0].Locale != "en" || order[0].Part != packfmt.PartCore {
		return nil, fmt.Errorf("index: the English core pack is required")
	}
	version := order[0].PackVersion
	ids := map[string]int32{}
	for _, p := range order {
		if p.PackVersion != version {
			return nil, fmt.Errorf("index: pack %s.%s is version %s, not %s", p.Locale, p.Part, p.PackVersion, version)
		}
		if p.Part != packfmt.PartCore {
			continue
		}
		for _, r := range p.Rows {
			if _, ok := ids[r.ID]; ok {
				continue
			}
			ids[r.ID] = int32(len(ix.Entries))
			ix.Entries = append(ix.Entries, Entry{ID: r.ID, Emoji: r.Emoji, Group: int8(r.Group), Subgroup: int16(r.Subgroup),
				Version: float32(r.Version), Skins: r.Skins, Prior: uint8(min(max(r.Prior, 0), 100)), Family: -1})
		}
	}
	for i := range ix.Entries {
		e := &ix.Entries[i]
		ix.byKey[Key(e.Emoji)] = int32(i)
		e.Family = int32(i)
	}
	for _, p := range order {
		if p.Part != packfmt.PartCore {
			continue
		}
		for _, r := range p.Rows {
			if f, ok := ids[r.Family]; ok && r.Family != "" {
				ix.Entries[ids[r.ID]].Family = f
			}
		}
	}

	type dedupKey struct {
		entry int32
		loc   uint8
		text  string
	}
	seen := map[dedupKey]bool{}
	postings := map[string][]uint32{}
	for _, p := range order {
		loc := ix.locale(p.Locale)
		if p.Part == packfmt.PartCore {
			ix.Groups[loc] = p.Groups
		}
		for _, r := range p.Rows {
			ei, ok := ids[r.ID]
			if !ok {
				continue // an extension row for an emoji no core pack has
			}
			if p.Part == packfmt.PartCore && len(r.Phrases[packfmt.FieldName]) > 0 {
				ix.Labels[loc][ei] = r.Label
			}
			for f, list := range r.Phrases {
				for _, raw := range list {
					if isSymbolic(raw) {
						k := SymbolKey(raw)
						ix.symbols[k] = append(ix.symbols[k], Symbol{ei, uint8(f), loc})
					}
					text := textnorm.Normalize(raw, 0)
					k := dedupKey{ei, loc, text}
					if text == "" || seen[k] {
						continue
					}
					seen[k] = true
					ix.addPhrase(postings, Phrase{Text: text, Entry: ei, Field: uint8(f), Loc: loc})
				}
			}
		}
	}
	ix.terms = make([]string, 0, len(postings))
	for t := range postings {
		ix.terms = append(ix.terms, t)
	}
	slices.Sort(ix.terms)
	ix.postOff = make([]uint32, 0, len(ix.terms)+1)
	ix.sigs = make([]uint64, len(ix.terms))
	for i, t := range ix.terms {
		ix.sigs[i] = sig(t)
		ix.termID[t] = int32(i)
		ix.postOff = append(ix.postOff, uint32(len(ix.post)))
		ix.post = append(ix.post, postings[t]...)
		if textnorm.IsUnspaced(t) {
			ix.maxWord = max(ix.maxWord, utf8.RuneCountInString(t))
		}
	}
	ix.postOff = append(ix.postOff, uint32(len(ix.post)))
	return ix, nil
}

func rank(p *packfmt.Pack) int {
	r := 2
	if p.Locale == "en" {
		r = 0
	}
	if p.Part != packfmt.PartCore {
		r++
	}
	return r
}

func (ix *Index) locale(loc string) uint8 {
	for i, l := range ix.Locales {
		if l == loc {
			return uint8(i)
		}
	}
	ix.Locales = append(ix.Locales, loc)
	ix.Labels = append(ix.Labels, make([]string, len(ix.Entries)))
	ix.Groups = append(ix.Groups, nil)
	return uint8(len(ix.Locales) - 1)
}

func (ix *Index) addPhrase(postings map[string][]uint32, ph Phrase) {
	pid := uint32(len(ix.Phrases))
	toks := textnorm.Tokenize(ph.Text)
	ph.NTok = uint8(min(len(toks), 255))
	ix.Phrases = append(ix.Phrases, ph)
	add := func(m map[string][]uint32, k string) {
		if l := m[k]; len(l) == 0 || l[len(l)-1] != pid {
			m[k] = append(l, pid)
		}
	}
	for _, t := range toks {
		add(postings, t)
		if !textnorm.IsUnspaced(t) {
			add(ix.stems, textnorm.Stem(t))
			continue
		}
		var prev string
		for _, r := range t {
			c := string(r)
			add(ix.grams, c)
			if prev != "" {
				add(ix.grams, prev+c)
			}
			prev = c
		}
	}
}

// Key is the lookup key of an emoji: without U+FE0F and skin-tone modifiers.
func Key(emoji string) string {
	if !strings.ContainsAny(emoji, "\uFE0F\U0001F3FB\U0001F3FC\U0001F3FD\U0001F3FE\U0001F3FF") {
		return emoji
	}
	var b strings.Builder
	for _, r := range emoji {
		if r == 0xFE0F || (r >= 0x1F3FB && r <= 0x1F3FF) {
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Lookup finds the entry of an emoji (any skin tone, with or without FE0F).
func (ix *Index) Lookup(emoji string) (int32, bool) {
	i, ok := ix.byKey[Key(emoji)]
	return i, ok
}

// prefixRange returns the terms starting with p as [lo, hi).
func (ix *Index) prefixRange(p string) (int, int) {
	lo, _ := slices.BinarySearch(ix.terms, p)
	hi := lo + sort.Search(len(ix.terms)-lo, func(i int) bool { return !strings.HasPrefix(ix.terms[lo+i], p) })
	return lo, hi
}

func (ix *Index) postings(term int) []uint32 {
	return ix.post[ix.postOff[term]:ix.postOff[term+1]]
}

// isSymbolic reports short phrases made mostly of ASCII punctuation (emoticons).
func isSymbolic(raw string) bool {
	if len(raw) > 16 {
		return false
	}
	punct := 0
	for _, c := range []byte(raw) {
		if c < 0x80 && strings.IndexByte("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", c) >= 0 {
			punct++
		}
	}
	return punct > 0 && punct*2 >= len(strings.TrimSpace(raw))
}

// sig is a 64-bit set of the characters of s (by code point modulo 64). One
// edit changes at most two bits, so terms whose signature differs from the
// query's in more than 2*d bits are more than d edits away.
func sig(s string) uint64 {
	var v uint64
	for _, r := range s {
		v |= 1 << (uint(r) & 63)
	}
	return v
}
