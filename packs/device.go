package packs

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"slices"
	"strings"
)

// A device index (device.<locale>.bin, packs/FORMAT.md "Device index") is a
// binary index of one locale re-encoded for download by the JS client. The
// index holds a phrase once per emoji, so a text shared by many emoji
// ("flag", an editorial concept's phrases) is stored as often; the device
// index stores each distinct text once, as the term ids of its tokens (the
// term keys are in the file anyway), with the emoji and fields of its
// phrases, and a term's postings name texts, not phrases. The reader
// numbers the phrases text by text, so a term's texts expand to ascending
// phrase ids. What the client never reads or can derive is left out, and
// integers are LEB128 varints, most of them zigzag deltas.

// DeviceMagic starts a device index; DeviceVersion is its layout version.
const (
	DeviceMagic   = "ESDEV\x00\x00\x00"
	DeviceVersion = 3
)

// Section encodings of a device index.
const (
	devRaw    = 1 // the values as little-endian integers of the section's width
	devDelta  = 2 // zigzag LEB128 varints of the differences between values, the first from 0
	devVarint = 3 // LEB128 varints of the values
	devLists  = 4 // lists one after another, each as devDelta (its first value from 0)
	devHash   = 5 // count values hashed: their 32-bit FNV-1a, little-endian
)

// Sections of a device index (packs/FORMAT.md "Device index").
const (
	dMeta, dParams, dGroups, dIDs, dLabels, dTerms = 0, 2, 3, 5, 6, 8
	dStemAt, dStemTerms, dStemKeys                 = 10, 11, 12
	dFirst, dNTok, dRest, dStart, dEntry, dField   = 14, 15, 16, 17, 18, 19
	dListAt, dLists, dOddIDs, dOdd, dSymbols       = 20, 21, 22, 23, 25
	dOddStems, dUnspaced, dRestAt                  = 29, 30, 31
	deviceSections                                 = 32
)

// binIndexMagic starts a binary index (engine/internal/index.Magic; packs/
// does not import the engine).
const binIndexMagic = "ESIDX\x00\x00\x00"

// Sections of a binary index (packs/FORMAT.md "Binary index").
const (
	secMeta, secParams, secGroups, secIDs, secLabels, secTexts = 0, 2, 3, 5, 15, 17
	secEntry, secField, secNTok, secTermKeys, secTermOff       = 19, 20, 21, 22, 24
	secTermPost, secStemKeys, secStemOff, secStemPost, secSym  = 25, 28, 30, 31, 38
)

// TermRules are the engine's token rules the device index needs: which
// stem each term has (engine.Stem, engine.IsUnspaced) and a text's tokens
// (engine.Tokenize).
type TermRules struct {
	Stem     func(tok string) string
	Unspaced func(tok string) bool
	Tokenize func(normalized string) []string
}

// ErrDeviceIndex reports bytes that are not a binary index CompactIndex can
// re-encode.
var ErrDeviceIndex = errors.New("packs: not a binary index for a device index")

// section is one section of a binary index: its width and values.
type section struct {
	width int
	vals  []uint32
	raw   []byte
}

// devSection is one section of a device index: the width of its values
// once decoded, its encoding, its value count and stored bytes.
type devSection struct {
	width int
	enc   byte
	count int
	data  []byte
}

// CompactIndex re-encodes a main binary index (index.<locale>.bin layout) as
// a device index:
//
//	magic "ESDEV\0\0\0" | version u16 | index format version u16 | sections u16
//	directory: sections x (width u8, encoding u8, count u32, stored bytes u32)
//	the stored sections, one after the other
//
// It checks what the reader will rebuild: every stem's list is the union of
// the lists of the terms rules give that stem, every phrase's tokens are
// terms and its token count the index's. The output depends only on the
// input.
func CompactIndex(idx []byte, rules TermRules) ([]byte, error) {
	secs, version, err := readIndex(idx)
	if err != nil {
		return nil, err
	}
	stemOf, err := termStems(secs, rules)
	if err != nil {
		return nil, err
	}
	tx, err := textTable(secs, rules)
	if err != nil {
		return nil, err
	}
	out := make([]devSection, deviceSections)
	put := func(i int, s devSection) { out[i] = s }
	str := func(i, sec int) { // a string table as stored in the index: offsets as deltas, bytes raw
		put(i, deltas(secs[sec].width, secs[sec].vals))
		put(i+1, devSection{width: 1, enc: devRaw, count: len(secs[sec+1].raw), data: secs[sec+1].raw})
	}
	str(dMeta, secMeta)
	put(dParams, deltas(secs[secParams].width, secs[secParams].vals))
	str(dGroups, secGroups)
	h := fnv.New32a()
	ids := strTable(secs, secIDs)
	for _, id := range ids {
		h.Write([]byte(id + "\n"))
	}
	put(dIDs, devSection{width: 4, enc: devHash, count: len(ids), data: binary.LittleEndian.AppendUint32(nil, h.Sum32())})
	str(dLabels, secLabels)
	str(dTerms, secTermKeys)
	st := stemTable(secs, stemOf)
	put(dStemAt, deltas(4, st.at))
	put(dStemTerms, deltas(4, st.terms))
	put(dStemKeys, deltas(4, offsets(st.odd)))
	put(dStemKeys+1, bytesOf(st.odd))
	put(dOddStems, deltas(4, st.oddAt))
	put(dUnspaced, deltas(4, st.unspaced))
	put(dRestAt, deltas(4, tx.restAt))
	put(dFirst, deltas(4, tx.first))
	put(dNTok, devSection{width: 1, enc: devRaw, count: len(tx.ntok), data: tx.ntok})
	put(dRest, varints(4, tx.rest))
	put(dStart, deltas(4, tx.start))
	// The entries are read at engine creation: raw, a copy rather than a
	// decode (about 2 KB more gzip than deltas, which the texts' order
	// makes large).
	e := make([]byte, 0, 2*len(tx.entry))
	for _, v := range tx.entry {
		if v > 0xffff {
			return nil, fmt.Errorf("%w: entry %d past 16 bits", ErrDeviceIndex, v)
		}
		e = binary.LittleEndian.AppendUint16(e, uint16(v))
	}
	put(dEntry, devSection{width: 2, enc: devRaw, count: len(tx.entry), data: e})
	put(dField, devSection{width: 1, enc: devRaw, count: len(tx.field), data: tx.field})
	put(dListAt, deltas(4, tx.listAt))
	put(dLists, devSection{width: 4, enc: devLists, count: tx.nPost, data: tx.lists})
	put(dOddIDs, deltas(4, tx.oddIDs))
	put(dOdd, deltas(4, offsets(tx.odd)))
	put(dOdd+1, bytesOf(tx.odd))
	str(dSymbols, secSym)
	put(dSymbols+2, deltas(secs[secSym+2].width, secs[secSym+2].vals))
	put(dSymbols+3, deltas(secs[secSym+3].width, secs[secSym+3].vals))
	b := make([]byte, 0, len(idx)/3)
	b = append(b, DeviceMagic...)
	b = binary.LittleEndian.AppendUint16(b, DeviceVersion)
	b = binary.LittleEndian.AppendUint16(b, version)
	b = binary.LittleEndian.AppendUint16(b, deviceSections)
	for _, s := range out {
		b = append(b, byte(s.width), s.enc)
		b = binary.LittleEndian.AppendUint32(b, uint32(s.count))
		b = binary.LittleEndian.AppendUint32(b, uint32(len(s.data)))
	}
	for _, s := range out {
		b = append(b, s.data...)
	}
	return b, nil
}

// readIndex returns the 48 sections of a main binary index and its format
// version.
func readIndex(idx []byte) ([]section, uint16, error) {
	if len(idx) < 16 || string(idx[:8]) != binIndexMagic {
		return nil, 0, fmt.Errorf("%w: magic", ErrDeviceIndex)
	}
	version := binary.LittleEndian.Uint16(idx[8:])
	n := int(binary.LittleEndian.Uint16(idx[10:]))
	if n != 48 || 16+12*n > len(idx) {
		return nil, 0, fmt.Errorf("%w: %d sections", ErrDeviceIndex, n)
	}
	secs := make([]section, n)
	for i := range n {
		e := idx[16+12*i:]
		width, count, at := int(e[0]), int(binary.LittleEndian.Uint32(e[4:])), int(binary.LittleEndian.Uint32(e[8:]))
		if width != 1 && width != 2 && width != 4 && width != 8 || at+width*count > len(idx) {
			return nil, 0, fmt.Errorf("%w: section %d", ErrDeviceIndex, i)
		}
		secs[i] = section{width: width, raw: idx[at : at+width*count]}
		if width == 8 {
			continue
		}
		secs[i].vals = make([]uint32, count)
		for j := range count {
			secs[i].vals[j] = uintN(idx[at+j*width:], width)
		}
	}
	for _, i := range []int{secMeta, secGroups, secIDs, secLabels, secTexts, secTermKeys, secStemKeys, secSym} {
		off, bytes := secs[i].vals, secs[i+1].raw
		for k := range off {
			if int(off[k]) > len(bytes) || k > 0 && off[k] < off[k-1] {
				return nil, 0, fmt.Errorf("%w: string table %d", ErrDeviceIndex, i)
			}
		}
	}
	return secs, version, nil
}

// deltas is a section of values as devDelta.
func deltas(width int, vals []uint32) devSection {
	var b []byte
	prev := int64(0)
	for _, v := range vals {
		d := int64(v) - prev
		b = binary.AppendUvarint(b, uint64(d<<1)^uint64(d>>63))
		prev = int64(v)
	}
	return devSection{width: width, enc: devDelta, count: len(vals), data: b}
}

// varints is a section of values as devVarint.
func varints(width int, vals []uint32) devSection {
	var b []byte
	for _, v := range vals {
		b = binary.AppendUvarint(b, uint64(v))
	}
	return devSection{width: width, enc: devVarint, count: len(vals), data: b}
}

// offsets and bytesOf are a string table's two sections' values.
func offsets(ss []string) []uint32 {
	off := []uint32{0}
	for _, s := range ss {
		off = append(off, off[len(off)-1]+uint32(len(s)))
	}
	return off
}
func bytesOf(ss []string) devSection {
	b := []byte(strings.Join(ss, ""))
	return devSection{width: 1, enc: devRaw, count: len(b), data: b}
}

// strTable is the strings of the index's string table at section i.
func strTable(secs []section, i int) []string {
	off := secs[i].vals
	out := make([]string, max(len(off)-1, 0))
	for k := range out {
		out[k] = string(secs[i+1].raw[off[k]:off[k+1]])
	}
	return out
}

// list is key k's postings in the keyed table at section i.
func list(secs []section, i, k int) []uint32 {
	o := secs[i+2].vals
	return secs[i+3].vals[o[k]:o[k+1]]
}

// texts is the device index's text table (sections dFirst to dOdd).
type texts struct {
	first, rest  []uint32 // per text: its first token's term; the other tokens' terms
	restAt       []uint32 // per text (and one past the last), where its other terms start in rest
	start, entry []uint32 // per text (and one past the last) its first phrase; per phrase its entry
	ntok, field  []byte   // per phrase: its text's token count, its field
	listAt       []uint32 // per term (and one past the last), where its list starts in lists
	lists        []byte   // per term, the texts holding it but as first token
	nPost        int
	oddIDs       []uint32 // the texts whose tokens joined by spaces are not the text
	odd          []string // and those texts
}

// textTable makes the text table: the distinct phrase texts ordered by
// their tokens' term ids (so a term's texts as first token are a run), the
// phrases of each text by entry and field, and per term the texts holding
// it after their first token.
func textTable(secs []section, rules TermRules) (texts, error) {
	phr, terms := strTable(secs, secTexts), strTable(secs, secTermKeys)
	entry, field, ntok := secs[secEntry].vals, secs[secField].vals, secs[secNTok].vals
	if len(entry) != len(phr) || len(field) != len(phr) || len(ntok) != len(phr) {
		return texts{}, fmt.Errorf("%w: phrase columns", ErrDeviceIndex)
	}
	termID := make(map[string]uint32, len(terms))
	for i, t := range terms {
		termID[t] = uint32(i)
	}
	type text struct {
		s    string
		toks []uint32
		ph   [][2]uint32 // entry, field
	}
	byText := map[string]*text{}
	var all []*text
	for p, s := range phr {
		t := byText[s]
		if t == nil {
			t = &text{s: s}
			for _, tok := range rules.Tokenize(s) {
				id, ok := termID[tok]
				if !ok {
					return texts{}, fmt.Errorf("%w: token %q of %q is not a term", ErrDeviceIndex, tok, s)
				}
				t.toks = append(t.toks, id)
			}
			if len(t.toks) == 0 || len(t.toks) > 255 || len(t.toks) != int(ntok[p]) {
				return texts{}, fmt.Errorf("%w: %q has %d tokens, the index says %d", ErrDeviceIndex, s, len(t.toks), ntok[p])
			}
			byText[s] = t
			all = append(all, t)
		}
		t.ph = append(t.ph, [2]uint32{entry[p], field[p]})
	}
	slices.SortFunc(all, func(a, b *text) int { return slices.Compare(a.toks, b.toks) })
	var tx texts
	later := make([][]uint32, len(terms))
	for i, t := range all {
		tx.first = append(tx.first, t.toks[0])
		tx.restAt = append(tx.restAt, uint32(len(tx.rest)))
		tx.rest = append(tx.rest, t.toks[1:]...)
		for j, id := range t.toks[1:] {
			if id != t.toks[0] && !slices.Contains(t.toks[1:j+1], id) {
				later[id] = append(later[id], uint32(i))
			}
		}
		joined := make([]string, len(t.toks))
		for j, id := range t.toks {
			joined[j] = terms[id]
		}
		if strings.Join(joined, " ") != t.s {
			tx.oddIDs = append(tx.oddIDs, uint32(i))
			tx.odd = append(tx.odd, t.s)
		}
		slices.SortFunc(t.ph, func(a, b [2]uint32) int { return slices.Compare(a[:], b[:]) })
		tx.start = append(tx.start, uint32(len(tx.entry)))
		for _, p := range t.ph {
			tx.entry = append(tx.entry, p[0])
			tx.field = append(tx.field, byte(p[1]))
			tx.ntok = append(tx.ntok, byte(len(t.toks)))
		}
	}
	for _, l := range later {
		tx.listAt = append(tx.listAt, uint32(len(tx.lists)))
		tx.lists = append(tx.lists, deltas(4, l).data...)
		tx.nPost += len(l)
	}
	tx.listAt = append(tx.listAt, uint32(len(tx.lists)))
	tx.start = append(tx.start, uint32(len(tx.entry)))
	tx.restAt = append(tx.restAt, uint32(len(tx.rest)))
	// The reader's term lists are the phrases of the texts holding the
	// term: they must be the index's.
	holding := make([][]uint32, len(terms))
	for p, s := range phr {
		for j, id := range byText[s].toks {
			if !slices.Contains(byText[s].toks[:j], id) {
				holding[id] = append(holding[id], uint32(p))
			}
		}
	}
	for k := range terms {
		if !slices.Equal(holding[k], list(secs, secTermKeys, k)) {
			return texts{}, fmt.Errorf("%w: term %q's phrases are not those of the texts holding it", ErrDeviceIndex, terms[k])
		}
	}
	return tx, nil
}

// stems is the device index's stem table (sections dStemAt, dStemTerms,
// dStemKeys, dOddStems) and its unspaced terms (dUnspaced).
type stems struct {
	at, terms []uint32 // per stem (and one past the last) where its terms start in terms
	odd       []string // the keys of the stems no term has as key
	oddAt     []uint32 // and those stems
	unspaced  []uint32 // the terms without a stem
}

// stemTable groups the terms by stem (stemOf: per term its stem + 1, 0 for
// an unspaced term): a stem's terms start with the term whose key is the
// stem's when there is one (its key is then that term's), the others
// ascending; the other stems' keys are spelt out.
func stemTable(secs []section, stemOf []uint32) stems {
	terms, keys := strTable(secs, secTermKeys), strTable(secs, secStemKeys)
	group := make([][]uint32, len(keys))
	var st stems
	for t, k := range stemOf {
		if k == 0 {
			st.unspaced = append(st.unspaced, uint32(t))
			continue
		}
		if terms[t] == keys[k-1] {
			group[k-1] = append([]uint32{uint32(t)}, group[k-1]...)
		} else {
			group[k-1] = append(group[k-1], uint32(t))
		}
	}
	st.at = []uint32{0}
	for k, g := range group {
		if len(g) == 0 || terms[g[0]] != keys[k] {
			st.odd = append(st.odd, keys[k])
			st.oddAt = append(st.oddAt, uint32(k))
		}
		st.terms = append(st.terms, g...)
		st.at = append(st.at, uint32(len(st.terms)))
	}
	return st
}

// termStems returns per term the index + 1 of its stem among the stem
// table's keys (0 for an unspaced term), after checking that the union of
// the lists of a stem's terms is the stem's list.
func termStems(secs []section, rules TermRules) ([]uint32, error) {
	stems, terms := strTable(secs, secStemKeys), strTable(secs, secTermKeys)
	stemAt := make(map[string]int, len(stems))
	for k, s := range stems {
		stemAt[s] = k
	}
	stemOf := make([]uint32, len(terms))
	union := make([]map[uint32]bool, len(stems))
	for t, key := range terms {
		if rules.Unspaced(key) {
			continue
		}
		k, ok := stemAt[rules.Stem(key)]
		if !ok {
			return nil, fmt.Errorf("%w: term %q has no stem in the index", ErrDeviceIndex, key)
		}
		stemOf[t] = uint32(k + 1)
		if union[k] == nil {
			union[k] = map[uint32]bool{}
		}
		for _, p := range list(secs, secTermKeys, t) {
			union[k][p] = true
		}
	}
	for k := range stems {
		l := list(secs, secStemKeys, k)
		ok := len(l) == len(union[k])
		for _, p := range l {
			ok = ok && union[k][p]
		}
		if !ok {
			return nil, fmt.Errorf("%w: stem %q is not the union of its terms", ErrDeviceIndex, stems[k])
		}
	}
	return stemOf, nil
}

// uintN reads a little-endian unsigned integer of width 1, 2 or 4 bytes.
func uintN(b []byte, width int) uint32 {
	switch width {
	case 1:
		return uint32(b[0])
	case 2:
		return uint32(binary.LittleEndian.Uint16(b))
	}
	return binary.LittleEndian.Uint32(b)
}
