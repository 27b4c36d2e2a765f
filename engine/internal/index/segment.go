package index

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/emojisearch/emojisearch/engine/internal/textnorm"
	"github.com/emojisearch/emojisearch/engine/packfmt"
)

// numSections is the number of sections of a segment in FormatVersion 1, in
// this order (a string table is 2 sections, offsets then bytes; a keyed table
// is 5: keys (2), posting offsets, postings, hash slots):
//
//	meta strings (locale, packVersion[, part]) | params (maxWord) | group labels
//	entry ids | entry emoji | group | subgroup | version×10 | skins | prior | family
//	labels | phrase texts | phrase entry | phrase field | phrase token count
//	terms | term signatures (u64) | stems | grams | symbols | emoji keys
const numSections = 48

// Segment is the index of one locale: its normalized phrases and lookup
// tables, over the entry table of the English core pack (the same in every
// segment of a pack version). It views the bytes it was decoded from. A part
// segment (part != "", written by WritePart) holds more phrases of a locale
// whose main segment holds the rest, and is searched as that locale.
type Segment struct {
	locale, packVersion, part string
	maxWord                   int
	groups                    strtab

	ids, emoji                                     strtab
	group, subgroup, version, skins, prior, family ints
	labels                                         strtab

	phText                   strtab
	phEntry, phField, phNTok ints

	terms, stems, grams, symbols, keys table
	sigs                               []uint64
}

// Locale is the segment's locale.
func (s *Segment) Locale() string { return s.locale }

// PackVersion is the version of the packs the segment was built from.
func (s *Segment) PackVersion() string { return s.packVersion }

// Part is "" for a locale's main segment, else the name of the part.
func (s *Segment) Part() string { return s.part }

// name is locale or locale.part, for messages.
func (s *Segment) name() string {
	if s.part == "" {
		return s.locale
	}
	return s.locale + "." + s.part
}

// WriteSegment indexes the phrases of one locale's packs (core, then
// extension) over the entries of the English core pack, which packs must
// hold, and writes the binary form. The output depends only on the packs.
func WriteSegment(w io.Writer, locale string, packs []*packfmt.Pack) error {
	var en *packfmt.Pack
	var mine []*packfmt.Pack
	for _, p := range packs {
		if p.Locale == "en" && p.Part == packfmt.PartCore && en == nil {
			en = p
		}
		if p.Locale == locale {
			mine = append(mine, p)
		}
	}
	if en == nil {
		return fmt.Errorf("index: the English core pack is required")
	}
	if len(mine) == 0 {
		return fmt.Errorf("index: no pack of locale %q", locale)
	}
	return writeSegment(w, locale, "", en, mine)
}

// WritePart indexes the phrases of phrases, extension packs of one locale,
// over the entries of en, the English core pack, as a part segment named
// part (lowercase a-z): more phrases of that locale, searched with its main
// segment. The output depends only on the packs.
func WritePart(w io.Writer, part string, en *packfmt.Pack, phrases []*packfmt.Pack) error {
	if part == "" || strings.Trim(part, "abcdefghijklmnopqrstuvwxyz") != "" {
		return fmt.Errorf("index: part name %q is not lowercase a-z", part)
	}
	if en == nil || en.Locale != "en" || en.Part != packfmt.PartCore {
		return fmt.Errorf("index: the English core pack is required")
	}
	if len(phrases) == 0 {
		return fmt.Errorf("index: part %s has no pack", part)
	}
	for _, p := range phrases {
		if p.Locale != phrases[0].Locale || p.Part != packfmt.PartExt {
			return fmt.Errorf("index: part %s: pack %s.%s is not an extension pack of %s", part, p.Locale, p.Part, phrases[0].Locale)
		}
	}
	return writeSegment(w, phrases[0].Locale, part, en, phrases)
}

func writeSegment(w io.Writer, locale, part string, en *packfmt.Pack, mine []*packfmt.Pack) error {
	mine = slices.Clone(mine)
	slices.SortStableFunc(mine, func(a, b *packfmt.Pack) int { return partRank(a) - partRank(b) })
	for _, p := range mine {
		if p.PackVersion != en.PackVersion {
			return fmt.Errorf("index: pack %s.%s is version %s, not %s", p.Locale, p.Part, p.PackVersion, en.PackVersion)
		}
	}
	var e encoder
	b := newSegBuilder(en)
	b.phrases(mine)
	meta := []string{locale, en.PackVersion}
	if part != "" {
		meta = append(meta, part)
	}
	e.strs(meta)
	e.u32s([]uint32{uint32(b.maxWord)})
	groups := make([]string, 10)
	for _, p := range mine {
		if p.Part == packfmt.PartCore {
			copy(groups, p.Groups)
		}
	}
	e.strs(groups)
	b.entries(&e)
	e.strs(b.labels)
	e.strs(b.phText)
	e.u32s(b.phEntry)
	e.u32s(b.phField)
	e.u32s(b.phNTok)
	// A file without editorial phrases is also a valid version 1 file: it
	// says so, so packs without them build to the same bytes as before.
	if slices.Max(append([]uint32{0}, b.phField...)) <= packfmt.FieldLow {
		e.version = 1
	}
	terms := e.table(b.terms)
	sigs := make([]uint64, len(terms))
	for i, t := range terms {
		sigs[i] = sig(t)
	}
	e.uints(sigs, 8)
	e.table(b.stems)
	e.table(b.grams)
	e.table(b.symbols)
	e.table(b.keys)
	if len(e.secs) != numSections {
		panic("index: section count")
	}
	return e.writeTo(w)
}

func partRank(p *packfmt.Pack) int {
	if p.Part == packfmt.PartCore {
		return 0
	}
	return 1
}

type segBuilder struct {
	en      *packfmt.Pack
	ids     map[string]uint32
	family  []uint32
	labels  []string
	phText  []string
	phEntry []uint32
	phField []uint32
	phNTok  []uint32
	terms   map[string][]uint32
	stems   map[string][]uint32
	grams   map[string][]uint32
	symbols map[string][]uint32
	keys    map[string][]uint32
	maxWord int
}

func newSegBuilder(en *packfmt.Pack) *segBuilder {
	b := &segBuilder{en: en, ids: map[string]uint32{}, terms: map[string][]uint32{}, stems: map[string][]uint32{},
		grams: map[string][]uint32{}, symbols: map[string][]uint32{}, keys: map[string][]uint32{}}
	for _, r := range en.Rows {
		if _, ok := b.ids[r.ID]; !ok {
			b.ids[r.ID] = uint32(len(b.ids))
		}
	}
	b.labels = make([]string, len(b.ids))
	return b
}

// entries writes the entry table of the English core pack.
func (b *segBuilder) entries(e *encoder) {
	n := len(b.ids)
	ids, emoji := make([]string, 0, n), make([]string, 0, n)
	group, sub, ver, skins, prior, fam := make([]uint32, 0, n), make([]uint32, 0, n), make([]uint32, 0, n), make([]uint32, 0, n), make([]uint32, 0, n), make([]uint32, 0, n)
	seen := map[string]bool{}
	for _, r := range b.en.Rows {
		if seen[r.ID] {
			continue
		}
		seen[r.ID] = true
		i := b.ids[r.ID]
		ids, emoji = append(ids, r.ID), append(emoji, r.Emoji)
		group, sub = append(group, uint32(max(r.Group, 0))), append(sub, uint32(max(r.Subgroup, 0)))
		ver = append(ver, uint32(math.Round(max(r.Version, 0)*10)))
		sk := uint32(0)
		if r.Skins {
			sk = 1
		}
		skins, prior = append(skins, sk), append(prior, uint32(min(max(r.Prior, 0), 100)))
		f, ok := b.ids[r.Family]
		if !ok || r.Family == "" {
			f = i
		}
		fam = append(fam, f)
		k := Key(r.Emoji)
		if _, dup := b.keys[k]; !dup {
			b.keys[k] = []uint32{i}
		}
	}
	e.strs(ids)
	e.strs(emoji)
	for _, v := range [][]uint32{group, sub, ver, skins, prior, fam} {
		e.u32s(v)
	}
}

// phrases normalizes and indexes the phrases of one locale's packs.
func (b *segBuilder) phrases(packs []*packfmt.Pack) {
	type dedup struct {
		entry     uint32
		text      string
		editorial bool
	}
	seen := map[dedup]bool{}
	for _, p := range packs {
		for _, r := range p.Rows {
			ei, ok := b.ids[r.ID]
			if !ok {
				continue // a row for an emoji the English core pack lacks
			}
			if p.Part == packfmt.PartCore && len(r.Phrases[packfmt.FieldName]) > 0 {
				b.labels[ei] = r.Label
			}
			for f, list := range r.Phrases {
				for _, raw := range list {
					if isSymbolic(raw) {
						k := SymbolKey(raw)
						b.symbols[k] = append(b.symbols[k], ei<<3|uint32(f))
					}
					text := textnorm.Normalize(raw, 0)
					// Once per entry, in its first (strongest) field; the
					// editorial phrases apart, as in their own part index:
					// one may repeat a dictionary phrase to rank it.
					k := dedup{ei, text, f >= packfmt.FieldEditorial}
					if text == "" || seen[k] {
						continue
					}
					seen[k] = true
					b.add(text, ei, uint32(f))
				}
			}
		}
	}
}

func (b *segBuilder) add(text string, ei, field uint32) {
	pid := uint32(len(b.phText))
	toks := textnorm.Tokenize(text)
	b.phText = append(b.phText, text)
	b.phEntry = append(b.phEntry, ei)
	b.phField = append(b.phField, field)
	b.phNTok = append(b.phNTok, uint32(min(len(toks), 255)))
	add := func(m map[string][]uint32, k string) {
		if l := m[k]; len(l) == 0 || l[len(l)-1] != pid {
			m[k] = append(l, pid)
		}
	}
	for _, t := range toks {
		add(b.terms, t)
		if !textnorm.IsUnspaced(t) {
			add(b.stems, textnorm.Stem(t))
			continue
		}
		b.maxWord = max(b.maxWord, utf8.RuneCountInString(t))
		var prev string
		for _, r := range t {
			c := string(r)
			add(b.grams, c)
			if prev != "" {
				add(b.grams, prev+c)
			}
			prev = c
		}
	}
}

// DecodeSegment views a binary segment in place: data must not change
// afterwards. Every offset and id is checked, so a damaged file gives an
// error, never a panic at search time.
func DecodeSegment(data []byte) (*Segment, error) {
	d, err := newDecoder(data, numSections)
	if err != nil {
		return nil, err
	}
	s := &Segment{}
	meta := d.strs()
	params := d.ints()
	s.groups = d.strs()
	s.ids, s.emoji = d.strs(), d.strs()
	for _, a := range []*ints{&s.group, &s.subgroup, &s.version, &s.skins, &s.prior, &s.family} {
		*a = d.ints()
	}
	s.labels = d.strs()
	s.phText = d.strs()
	s.phEntry, s.phField, s.phNTok = d.ints(), d.ints(), d.ints()
	s.terms = d.table()
	s.sigs = d.u64s()
	s.stems, s.grams, s.symbols, s.keys = d.table(), d.table(), d.table(), d.table()
	if d.err != nil {
		return nil, d.err
	}
	if meta.len() < 2 || meta.len() > 3 || params.len() != 1 {
		return nil, fmt.Errorf("%w: bad meta", ErrFormat)
	}
	s.locale, s.packVersion, s.maxWord = meta.at(0), meta.at(1), int(params.at(0))
	if meta.len() == 3 {
		if s.part = meta.at(2); s.part == "" {
			return nil, fmt.Errorf("%w: empty part name", ErrFormat)
		}
	}
	n, np := s.ids.len(), s.phText.len()
	for _, c := range []struct {
		what  string
		a     ints
		len   int
		bound int
	}{
		{"emoji", s.emoji.off, n + 1, math.MaxInt32}, {"group", s.group, n, 10}, {"subgroup", s.subgroup, n, 1 << 16},
		{"version", s.version, n, 1 << 16}, {"skins", s.skins, n, 2}, {"prior", s.prior, n, 101}, {"family", s.family, n, n},
		{"labels", s.labels.off, n + 1, math.MaxInt32}, {"phrase entry", s.phEntry, np, n},
		{"phrase field", s.phField, np, packfmt.NumStoredFields}, {"phrase tokens", s.phNTok, np, 256},
		{"terms", s.terms.post, -1, np}, {"stems", s.stems.post, -1, np}, {"grams", s.grams.post, -1, np},
		{"symbols", s.symbols.post, -1, n << 3}, {"keys", s.keys.post, -1, n},
	} {
		if c.len >= 0 && c.a.len() != c.len {
			return nil, fmt.Errorf("%w: %s: %d values, want %d", ErrFormat, c.what, c.a.len(), c.len)
		}
		for i := range c.a.len() {
			if int(c.a.at(i)) >= c.bound {
				return nil, fmt.Errorf("%w: %s: value out of range", ErrFormat, c.what)
			}
		}
	}
	for i := range s.symbols.post.len() {
		if s.symbols.post.at(i)&7 >= packfmt.NumStoredFields {
			return nil, fmt.Errorf("%w: symbols: field out of range", ErrFormat)
		}
	}
	if len(s.sigs) != s.terms.keys.len() || s.groups.len() != 10 {
		return nil, fmt.Errorf("%w: signatures or groups do not match", ErrFormat)
	}
	return s, nil
}

// sameEntries reports whether two segments index the same entries.
func (s *Segment) sameEntries(o *Segment) bool {
	if s.ids.len() != o.ids.len() {
		return false
	}
	for i := range s.ids.len() {
		if s.ids.at(i) != o.ids.at(i) {
			return false
		}
	}
	return true
}
