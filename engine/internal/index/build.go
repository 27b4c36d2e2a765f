// Package index is the alias engine's dictionary index: one Segment per
// locale (normalized phrases, an exact/prefix term table, stem and character
// n-gram tables) in a flat binary form built once by the pack build
// (segment.go, format.go), and the search over the segments of the loaded
// locales (search.go).
package index

import (
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/emojisearch/emojisearch/engine/packfmt"
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
	Flag      bool  // a country or region flag (isCountryFlag)
	// Directional: a direction variant (isDirectional), read once here,
	// not searched for in the ID of every family member a search ranks.
	Directional bool
}

// Index is a set of segments, English first. It is immutable and safe for
// concurrent searches.
type Index struct {
	Entries     []Entry
	Locales     []string // segment index -> locale
	Parts       []string // segment index -> part ("" for a locale's main segment)
	PackVersion string
	Weights     [packfmt.NumStoredFields + 1]float32 // by field; typo last
	English     float32                              // factor for English phrases under another locale

	segs     []*Segment
	base     []uint32 // first global phrase id of each segment
	damp     *dampTables
	nPhrases int
	locSegs  [][]int    // segment index -> the segments of its locale, main first
	english  uint64     // bit per English segment (segWeight compared locale strings per segment and search)
	scratch  *sync.Pool // of *scratch, sized for this index (search.go)
	shown    [][]string // main segment -> entry -> ShownLabel; nil for other segments
	// wordSymbols: some emoticon key is letters, digits and spaces only.
	// Without one, a query of such characters (most are) needs no lookup.
	wordSymbols bool
}

// Symbol is an emoticon-like phrase (":)", "<3") matched on its raw text.
type Symbol struct {
	Entry int32
	Field uint8
	Loc   uint8
}

// New assembles decoded segments, the English main segment first; every
// segment must come from the same pack version and index the same entries,
// and a part segment needs its locale's main segment.
func New(segs ...*Segment) (*Index, error) {
	if len(segs) == 0 || segs[0].locale != "en" || segs[0].part != "" {
		return nil, fmt.Errorf("index: the English segment is required first")
	}
	if len(segs) > 64 {
		return nil, fmt.Errorf("index: at most 64 locales")
	}
	ix := &Index{PackVersion: segs[0].packVersion, segs: segs}
	w := packfmt.DefaultWeights
	for f := range packfmt.NumStoredFields {
		ix.Weights[f] = float32(w[packfmt.Fields[f]])
	}
	ix.Weights[packfmt.FieldTypo] = float32(w["typo"])
	ix.English = float32(w["english"])
	for i, s := range segs {
		if s.packVersion != ix.PackVersion {
			return nil, fmt.Errorf("index: segment %s is version %s, not %s", s.locale, s.packVersion, ix.PackVersion)
		}
		for j, l := range ix.Locales {
			if l == s.locale && ix.Parts[j] == s.part {
				return nil, fmt.Errorf("index: locale %s given twice", s.name())
			}
		}
		if i > 0 && !s.sameEntries(segs[0]) {
			return nil, fmt.Errorf("index: segment %s indexes other entries than en", s.name())
		}
		if s.locale == "en" {
			ix.english |= 1 << i
		}
		for k := range s.symbols.keys.len() {
			ix.wordSymbols = ix.wordSymbols || wordText(s.symbols.keys.at(k))
		}
		ix.Locales = append(ix.Locales, s.locale)
		ix.Parts = append(ix.Parts, s.part)
		ix.base = append(ix.base, uint32(ix.nPhrases))
		ix.nPhrases += s.phText.len()
	}
	ix.locSegs = make([][]int, len(segs))
	for i, s := range segs {
		var same []int
		for j, t := range segs {
			if t.locale == s.locale && t.part == "" {
				same = append([]int{j}, same...)
			} else if t.locale == s.locale {
				same = append(same, j)
			}
		}
		if ix.Parts[same[0]] != "" {
			return nil, fmt.Errorf("index: segment %s without the main segment of %s", s.name(), s.locale)
		}
		ix.locSegs[i] = same
	}
	ix.scratch = &sync.Pool{New: func() any {
		return &scratch{phrases: ix.newPhraseAccs(), entries: make([]entryAcc, len(ix.Entries)), fam: make([]famSlot, len(ix.Entries))}
	}}
	en := segs[0]
	ix.Entries = make([]Entry, en.ids.len())
	for i := range ix.Entries {
		ix.Entries[i] = Entry{ID: en.ids.at(i), Emoji: en.emoji.at(i), Group: int8(en.group.at(i)), Subgroup: int16(en.subgroup.at(i)),
			Version: float32(en.version.at(i)) / 10, Skins: en.skins.at(i) == 1, Prior: uint8(en.prior.at(i)), Family: int32(en.family.at(i))}
		ix.Entries[i].Flag = isCountryFlag(ix.Entries[i].ID)
		ix.Entries[i].Directional = isDirectional(ix.Entries[i].ID)
	}
	ix.damp = newDampTables(segs)
	ix.shown = make([][]string, len(ix.segs))
	for si, seg := range ix.segs {
		if ix.Parts[si] != "" {
			continue
		}
		shown := make([]string, len(ix.Entries))
		for ei := range shown {
			if shown[ei] = seg.labels.at(ei); shown[ei] == "" {
				shown[ei] = ix.segs[0].labels.at(ei)
			}
		}
		ix.shown[si] = shown
	}
	return ix, nil
}

// Segments returns the segments (English first).
func (ix *Index) Segments() []*Segment { return ix.segs }

// Label is the display label of an entry in locale index loc ("" when none).
func (ix *Index) Label(loc int, entry int32) string { return ix.segs[loc].labels.at(int(entry)) }

// ShownLabel is the label a result shows: the entry's in the main segment
// loc, else (none there, or loc -1) its English one. Worked out once per
// index: every result of every search reads one, and reading it from the
// label table (two offsets of a stored width, then the text) was, with
// the phrase text (HitText), about a tenth of a typical keystroke under
// js/wasm.
func (ix *Index) ShownLabel(loc int, entry int32) string {
	if loc < 0 || ix.shown[loc] == nil {
		loc = 0
	}
	return ix.shown[loc][entry]
}

// Group is the label of an emojibase group in locale index loc.
func (ix *Index) Group(loc, group int) string {
	if group < 0 || group >= ix.segs[loc].groups.len() {
		return ""
	}
	return ix.segs[loc].groups.at(group)
}

// HitText is the normalized text of a hit's phrase. The hit carries its
// segment: finding it from the global phrase id took a step per loaded
// segment (from the last) for every English result.
func (ix *Index) HitText(h Hit) string {
	return ix.segs[h.Seg].phText.at(int(uint32(h.Phrase) - ix.base[h.Seg]))
}

// SymbolKey is the lookup form of a raw emoticon: trimmed, lowercased, single spaces.
func SymbolKey(raw string) string {
	if len(raw) > 16 {
		return ""
	}
	if symbolKeyASCII(raw) {
		return raw // every query is looked up: most are so already, no copies
	}
	return strings.ToLower(strings.Join(strings.Fields(raw), " "))
}

// wordText reports an ASCII text of letters, digits and whitespace only
// (SymbolKey keeps it so, lowercased).
func wordText(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r':
		default:
			return false
		}
	}
	return true
}

// symbolKeyASCII reports an ASCII text SymbolKey leaves as it is: no
// capitals, no whitespace but single inner spaces.
func symbolKeyASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= utf8.RuneSelf, c >= 'A' && c <= 'Z', c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r':
			return false
		case c == ' ' && (i == 0 || i == len(s)-1 || s[i-1] == ' '):
			return false
		}
	}
	return s != ""
}

// Symbols returns the emoticon phrases equal to a raw query.
func (ix *Index) Symbols(raw string) []Symbol {
	if !ix.wordSymbols && wordText(raw) {
		return nil
	}
	k := SymbolKey(raw)
	if k == "" {
		return nil
	}
	var out []Symbol
	for si, s := range ix.segs {
		if i, ok := s.symbols.find(k); ok {
			lo, hi := s.symbols.list(i)
			for j := lo; j < hi; j++ {
				v := s.symbols.post.at(j)
				out = append(out, Symbol{Entry: int32(v >> 3), Field: uint8(v & 7), Loc: uint8(si)})
			}
		}
	}
	return out
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
	k := &ix.segs[0].keys
	i, ok := k.find(Key(emoji))
	if !ok {
		return 0, false
	}
	if lo, hi := k.list(i); lo < hi {
		return int32(k.post.at(lo)), true
	}
	return 0, false
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

// EachPhrase calls fn for every phrase of every segment, in global id order
// (for tests and tools).
func (ix *Index) EachPhrase(fn func(loc int, entry int32, field uint8, text string)) {
	for si, s := range ix.segs {
		for i := range s.phText.len() {
			fn(si, int32(s.phEntry.at(i)), uint8(s.phField.at(i)), s.phText.at(i))
		}
	}
}
