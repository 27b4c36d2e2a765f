package packs

import (
	"encoding/binary"
	"hash/fnv"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/engine"
	"github.com/emojisearch/emojisearch/engine/packfmt"
)

var terms = TermRules{Stem: engine.Stem, Unspaced: engine.IsUnspaced, Tokenize: engine.Tokenize}

// device is a device index read back as the JS reader reads it: the
// sections' values (raw, deltas, varints; a hash's count and value) and
// each term's other texts.
type device struct {
	enc   []byte
	count []int
	vals  [][]uint32
	lists [][]uint32
}

func readDevice(t *testing.T, b []byte) device {
	require.Equal(t, DeviceMagic, string(b[:8]))
	require.EqualValues(t, DeviceVersion, binary.LittleEndian.Uint16(b[8:]))
	n := int(binary.LittleEndian.Uint16(b[12:]))
	require.Equal(t, deviceSections, n)
	var d device
	at := 14 + 10*n
	for i := range n {
		e := b[14+10*i:]
		enc, count, size := e[1], int(binary.LittleEndian.Uint32(e[2:])), int(binary.LittleEndian.Uint32(e[6:]))
		body := b[at : at+size]
		at += size
		var v []uint32
		switch enc {
		case devRaw:
			for j := range count {
				v = append(v, uintN(body[j*int(e[0]):], int(e[0])))
			}
		case devDelta:
			v = unzig(t, body)
		case devVarint:
			for len(body) > 0 {
				u, k := binary.Uvarint(body)
				require.Positive(t, k)
				body, v = body[k:], append(v, uint32(u))
			}
		case devHash:
			v = []uint32{binary.LittleEndian.Uint32(body)}
		case devLists:
			listAt := d.vals[dListAt]
			for j := 0; j+1 < len(listAt); j++ {
				d.lists = append(d.lists, unzig(t, body[listAt[j]:listAt[j+1]]))
			}
		}
		if enc != devHash && enc != devLists {
			require.Len(t, v, count, "section %d", i)
		}
		d.enc, d.count, d.vals = append(d.enc, enc), append(d.count, count), append(d.vals, v)
	}
	require.Equal(t, len(b), at, "the sections fill the file")
	return d
}

// unzig is the values of zigzag delta varints, the first from 0.
func unzig(t *testing.T, body []byte) (v []uint32) {
	prev := int64(0)
	for len(body) > 0 {
		u, k := binary.Uvarint(body)
		require.Positive(t, k)
		body = body[k:]
		prev += int64(u>>1) ^ -int64(u&1)
		v = append(v, uint32(prev))
	}
	return v
}

// strs is a device index's string table at section i.
func (d device) strs(i int) []string {
	var b []byte
	for _, c := range d.vals[i+1] {
		b = append(b, byte(c))
	}
	out := []string{}
	for k := 0; k+1 < len(d.vals[i]); k++ {
		out = append(out, string(b[d.vals[i][k]:d.vals[i][k+1]]))
	}
	return out
}

// phrase is what a phrase is to the engine: its text, entry, field and
// token count.
type phrase struct {
	text               string
	entry, field, ntok uint32
}

// phrases are the device index's phrases in its order (text by text) and
// each term's phrases, as the JS reader makes them.
func (d device) phrases(t *testing.T) (out []phrase, termPhrases [][]int) {
	keys := d.strs(dTerms)
	odd := map[uint32]string{}
	for j, s := range d.strs(dOdd) {
		odd[d.vals[dOddIDs][j]] = s
	}
	p := 0
	textPhrases := make([][]int, len(d.vals[dFirst]))
	termTexts := make([][]int, len(keys))
	for x, first := range d.vals[dFirst] {
		toks := append([]uint32{first}, d.vals[dRest][d.vals[dRestAt][x]:d.vals[dRestAt][x+1]]...)
		text, ok := odd[uint32(x)]
		if !ok {
			var words []string
			for _, id := range toks {
				words = append(words, keys[id])
			}
			text = strings.Join(words, " ")
		}
		termTexts[first] = append(termTexts[first], x)
		for range d.vals[dStart][x+1] - d.vals[dStart][x] {
			require.EqualValues(t, len(toks), d.vals[dNTok][p], "a text's phrases have its token count")
			out = append(out, phrase{text, d.vals[dEntry][p], d.vals[dField][p], d.vals[dNTok][p]})
			textPhrases[x] = append(textPhrases[x], p)
			p++
		}
	}
	for k, l := range d.lists {
		for _, x := range l {
			termTexts[k] = append(termTexts[k], int(x))
		}
	}
	for _, xs := range termTexts {
		slices.Sort(xs)
		var ps []int
		for _, x := range xs {
			ps = append(ps, textPhrases[x]...)
		}
		termPhrases = append(termPhrases, ps)
	}
	return out, termPhrases
}

// TestCompactIndex: a device index read back gives the index's phrases
// (each text once, its tokens' terms), each term the phrases of the index's
// list, the stems, labels, symbols and the entry ids' hash.
func TestCompactIndex(t *testing.T) {
	files, err := Build(fixture(), "test1", []string{"en", "tr"}, indexer)
	require.NoError(t, err)
	byName := map[string][]byte{}
	for _, f := range files {
		byName[f.Name] = f.Data
	}
	for _, loc := range []string{"en", "tr"} {
		dev := byName[packfmt.DeviceIndexFile(loc)]
		require.NotNil(t, dev, loc)
		// The device index is compacted from the locale's main index with
		// the editorial phrases (none in the fixture): index.<locale>.bin.
		idx := byName[packfmt.IndexFile(loc)]
		again, err := CompactIndex(idx, terms)
		require.NoError(t, err)
		assert.Equal(t, dev, again, loc)
		assert.Less(t, len(dev), len(idx), loc)
		secs, _, err := readIndex(idx)
		require.NoError(t, err)
		d := readDevice(t, dev)
		for i, s := range map[int]int{dMeta: secMeta, dGroups: secGroups, dLabels: secLabels, dTerms: secTermKeys, dSymbols: secSym} {
			assert.Equal(t, strTable(secs, s), d.strs(i), "string table %d", i)
		}
		for k := 2; k < 4; k++ {
			assert.Equal(t, append([]uint32{}, secs[secSym+k].vals...), append([]uint32{}, d.vals[dSymbols+k]...), "symbols %d", k)
		}
		h := fnv.New32a()
		h.Write([]byte(strings.Join(strTable(secs, secIDs), "\n") + "\n"))
		assert.Equal(t, []uint32{h.Sum32()}, d.vals[dIDs], loc)
		assert.Equal(t, len(secs[secIDs].vals)-1, d.count[dIDs], loc)

		// Phrases: the index's, reordered; each term's list, the same phrases.
		got, termPhrases := d.phrases(t)
		texts := strTable(secs, secTexts)
		var want []phrase
		for p, s := range texts {
			want = append(want, phrase{s, secs[secEntry].vals[p], secs[secField].vals[p], secs[secNTok].vals[p]})
		}
		key := func(p phrase) string {
			return p.text + "\x00" + string(rune(p.entry)) + string(rune(p.field)) + string(rune(p.ntok))
		}
		sorted := func(ps []phrase) []string {
			var ks []string
			for _, p := range ps {
				ks = append(ks, key(p))
			}
			slices.Sort(ks)
			return ks
		}
		assert.Equal(t, sorted(want), sorted(got), loc)
		keys := strTable(secs, secTermKeys)
		require.Len(t, termPhrases, len(keys))
		for k := range keys {
			var w, g []phrase
			for _, p := range list(secs, secTermKeys, k) {
				w = append(w, want[p])
			}
			for _, p := range termPhrases[k] {
				g = append(g, got[p])
			}
			assert.Equal(t, sorted(w), sorted(g), "term %q", keys[k])
			assert.True(t, slices.IsSorted(termPhrases[k]), "term %q's phrases ascending", keys[k])
		}

		// Stems: each stem's terms, as the engine stems them; its key, its
		// first term's or spelt out; the unspaced terms.
		stems := strTable(secs, secStemKeys)
		odd, oddAt := d.strs(dStemKeys), d.vals[dOddStems]
		require.Len(t, d.vals[dStemAt], len(stems)+1)
		grouped := map[uint32]bool{}
		for k, key := range stems {
			ts := d.vals[dStemTerms][d.vals[dStemAt][k]:d.vals[dStemAt][k+1]]
			require.NotEmpty(t, ts, key)
			for _, tk := range ts {
				assert.Equal(t, key, engine.Stem(keys[tk]), keys[tk])
				grouped[tk] = true
			}
			if len(oddAt) > 0 && oddAt[0] == uint32(k) {
				assert.Equal(t, key, odd[0])
				assert.NotEqual(t, key, keys[ts[0]])
				odd, oddAt = odd[1:], oddAt[1:]
				continue
			}
			assert.Equal(t, key, keys[ts[0]], "a stem's first term has its key")
		}
		assert.Empty(t, odd)
		for j, term := range keys {
			assert.Equal(t, engine.IsUnspaced(term), slices.Contains(d.vals[dUnspaced], uint32(j)), term)
			assert.Equal(t, !engine.IsUnspaced(term), grouped[uint32(j)], term)
		}
	}
}

func TestCompactIndexRefuses(t *testing.T) {
	files, err := Build(fixture(), "test1", []string{"en"}, indexer)
	require.NoError(t, err)
	var idx []byte
	for _, f := range files {
		if f.Name == packfmt.IndexFile("en") {
			idx = f.Data
		}
	}
	require.NotNil(t, idx)
	_, err = CompactIndex([]byte("not an index at all"), terms)
	require.ErrorIs(t, err, ErrDeviceIndex)
	_, err = CompactIndex(idx[:len(idx)/2], terms)
	require.ErrorIs(t, err, ErrDeviceIndex, "sections past the end")
	// Rules other than the engine's: the stems the file would name are not
	// the index's, or the texts' tokens not its terms, and the build fails
	// instead of writing a wrong file.
	_, err = CompactIndex(idx, TermRules{Stem: strings.ToUpper, Unspaced: engine.IsUnspaced, Tokenize: engine.Tokenize})
	require.ErrorIs(t, err, ErrDeviceIndex)
	_, err = CompactIndex(idx, TermRules{Stem: engine.Stem, Unspaced: engine.IsUnspaced, Tokenize: func(s string) []string { return []string{s + "x"} }})
	require.ErrorIs(t, err, ErrDeviceIndex)
	_, err = CompactIndex(idx, TermRules{Stem: engine.Stem, Unspaced: engine.IsUnspaced, Tokenize: func(s string) []string { return engine.Tokenize(s)[:1] }})
	require.ErrorIs(t, err, ErrDeviceIndex, "token counts")
}
