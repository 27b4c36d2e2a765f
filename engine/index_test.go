package engine

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/engine/internal/index"
	"github.com/emojisearch/emojisearch/engine/packfmt"
)

func readPackFiles(t testing.TB, names ...string) [][]byte {
	var files [][]byte
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join(packDir, n))
		require.NoError(t, err)
		files = append(files, b)
	}
	return files
}

// traceQueries are a fixed list of queries: words of the packs' phrases
// (every 97th phrase; every 970th under -short, as test.sh runs the tests
// compiled to js/wasm, where the native run has compared the full trace),
// their prefixes, and hand-picked cases.
func traceQueries(e *Engine) []string {
	qs := []string{":joy:", "joy", "face with tea", "笑哭", "kedi", "gulmek", "smilng", "cats", "10:30", ":)", "👍🏽 cat", "wheel chair", ""}
	every := 97
	if testing.Short() {
		every *= 10
	}
	i := 0
	e.ix.EachPhrase(func(_ int, _ int32, _ uint8, text string) {
		if i++; i%every == 0 {
			qs = append(qs, text)
			if r := []rune(text); len(r) > 3 {
				qs = append(qs, string(r[:3]), string(r[:len(r)-1]))
			}
		}
	})
	return qs
}

// assocShortPrefix tells a query that, typed on, ends in a word too short
// to complete in the associations' part (index.assocMinPrefix), as typed
// or as the relaxed pass splits it ("domuz": "dom uz"): the engine from the
// JSON packs, which holds them in the locale's index, completes it there.
func assocShortPrefix(e *Engine, q, locale string) bool {
	mask := searchMask(e.ix, locale).mask
	units := e.ix.Units(nil, Tokenize(Normalize(q, MaxQueryLength)), true, mask)
	for _, us := range [][]index.Unit{units, e.ix.Relax(units, mask)} {
		if len(us) > 0 && len(us[len(us)-1].Text) < 3 {
			return true
		}
	}
	return false
}

// relatedSplit splits the committed English extension pack as the pack build
// does: the phrases the committed related index holds (index.en.related.bin)
// and the rest (index.en.bin).
func relatedSplit(t *testing.T, core, ext *packfmt.Pack) (plain, related *packfmt.Pack) {
	t.Helper()
	withRelated, err := Load(NewConfig(), readPackFiles(t, "index.en.bin", packfmt.RelatedIndexFile)...)
	require.NoError(t, err)
	in := map[string]bool{} // entry id + "\x00" + text of the related index
	withRelated.ix.EachPhrase(func(loc int, entry int32, _ uint8, text string) {
		if withRelated.ix.Parts[loc] == packfmt.RelatedPart {
			in[withRelated.ix.Entries[entry].ID+"\x00"+text] = true
		}
	})
	p, r := *ext, *ext
	p.Rows, r.Rows = nil, nil
	n := 0
	for _, row := range ext.Rows {
		a, b := row, row
		a.Phrases, b.Phrases = [packfmt.NumStoredFields][]string{}, [packfmt.NumStoredFields][]string{}
		for f, list := range row.Phrases {
			for _, ph := range list {
				if f == packfmt.FieldLow && in[row.ID+"\x00"+Normalize(ph, 0)] {
					b.Phrases[f] = append(b.Phrases[f], ph)
					n++
				} else {
					a.Phrases[f] = append(a.Phrases[f], ph)
				}
			}
		}
		addIfAny(&p, a)
		addIfAny(&r, b)
	}
	require.Len(t, in, n, "every phrase of the related index is a phrase of the extension pack")
	require.Greater(t, n, 10_000)
	return &p, &r
}

// addIfAny appends row to p when it has a phrase.
func addIfAny(p *packfmt.Pack, row packfmt.Row) {
	for _, l := range row.Phrases {
		if len(l) > 0 {
			p.Rows = append(p.Rows, row)
			return
		}
	}
}

// editorialSplit splits an extension pack as the pack build does: the
// editorial fields go to the locale's editorial part index.
func editorialSplit(ext *packfmt.Pack) (plain, ed *packfmt.Pack) {
	p, e := *ext, *ext
	p.Rows, e.Rows = nil, nil
	for _, row := range ext.Rows {
		a, b := row, packfmt.Row{ID: row.ID, Group: -1, Subgroup: -1}
		for _, f := range []int{packfmt.FieldEditorial, packfmt.FieldEditorialMore} {
			b.Phrases[f], a.Phrases[f] = row.Phrases[f], nil
		}
		addIfAny(&p, a)
		addIfAny(&e, b)
	}
	return &p, &e
}

// TestIndexRoundTrip: the pack build's binary indexes (committed) equal a
// fresh WriteIndex of the committed JSON packs (index.en.bin and
// index.en.related.bin: WriteIndex and WritePartIndex of the English
// extension pack split; index.<locale>.assoc.bin: WritePartIndex of the
// associations), and an engine loaded from them (with the part indexes)
// answers every query exactly as the engine built from the JSON packs, but
// a word of one or two bytes being typed: its completions leave out the
// associations' part (assocShortPrefix).
func TestIndexRoundTrip(t *testing.T) {
	for _, locs := range [][]string{{"en"}, {"en", "tr"}, {"en", "zh", "hi", "ar"}} {
		t.Run(locs[len(locs)-1], func(t *testing.T) {
			var jsonFiles, binFiles [][]byte
			var decoded []*packfmt.Pack         // core and extension packs, in pairs
			assoc := map[string]*packfmt.Pack{} // the associations, by locale
			for _, loc := range locs {
				for _, name := range packfmt.PackFiles(os.DirFS(packDir), loc) {
					f := readPackFiles(t, name)[0]
					jsonFiles = append(jsonFiles, f)
					p, err := packfmt.Decode(f)
					require.NoError(t, err)
					if name == packfmt.AssocPackFile(loc) {
						assoc[loc] = p
					} else {
						decoded = append(decoded, p)
					}
				}
			}
			// The indexes hold the extension packs without their editorial
			// phrases (and English without its related words); those and
			// the associations have part indexes of their own.
			indexed := slices.Clone(decoded)
			eds := map[string]*packfmt.Pack{}
			for i := 1; i < len(indexed); i += 2 {
				indexed[i], eds[indexed[i].Locale] = editorialSplit(indexed[i])
			}
			plain, related := relatedSplit(t, decoded[0], indexed[1])
			var parts []string
			part := func(loc, name string, p *packfmt.Pack) {
				committed := readPackFiles(t, packfmt.PartIndexFile(loc, name))[0]
				var b bytes.Buffer
				require.NoError(t, WritePartIndex(&b, name, decoded[0], p))
				require.True(t, bytes.Equal(committed, b.Bytes()), "%s is stale: run the pack build", packfmt.PartIndexFile(loc, name))
				binFiles = append(binFiles, committed)
				parts = append(parts, loc+"."+name)
			}
			for _, loc := range locs {
				committed := readPackFiles(t, "index."+loc+".bin")[0]
				var b bytes.Buffer
				if loc == "en" {
					require.NoError(t, WriteIndex(&b, loc, decoded[0], plain))
				} else {
					require.NoError(t, WriteIndex(&b, loc, indexed...))
				}
				require.True(t, bytes.Equal(committed, b.Bytes()), "index.%s.bin is stale: run the pack build", loc)
				binFiles = append(binFiles, committed)
				part(loc, packfmt.EditorialPart, eds[loc])
				if assoc[loc] != nil {
					part(loc, packfmt.AssocPart, assoc[loc])
				}
			}
			committed := readPackFiles(t, packfmt.RelatedIndexFile)[0]
			var b bytes.Buffer
			require.NoError(t, WritePartIndex(&b, packfmt.RelatedPart, decoded[0], related))
			require.True(t, bytes.Equal(committed, b.Bytes()), "%s is stale: run the pack build", packfmt.RelatedIndexFile)
			binFiles = append(binFiles, committed)

			fromJSON, err := Load(NewConfig(), jsonFiles...)
			require.NoError(t, err)
			fromBin, err := Load(NewConfig(), binFiles...)
			require.NoError(t, err)
			assert.Equal(t, fromJSON.Locales(), fromBin.Locales())
			assert.ElementsMatch(t, append(parts, "en.related"), fromBin.Parts())
			assert.Equal(t, fromJSON.Len(), fromBin.Len())
			compared := 0
			for _, q := range traceQueries(fromJSON) {
				for _, loc := range append([]string{""}, locs...) {
					for _, prefix := range []bool{true, false} {
						if prefix && len(assoc) > 0 && assocShortPrefix(fromJSON, q, loc) {
							continue
						}
						o := Options{Limit: 24, Locale: loc, Prefix: prefix}
						require.Equal(t, fromJSON.Search(q, o), fromBin.Search(q, o), "%q %v", q, o)
						compared++
					}
				}
			}
			assert.Greater(t, compared, 1000)
			got, ok := fromBin.Get("1F44B-1F3FD")
			require.True(t, ok)
			want, _ := fromJSON.Get("1F44B")
			assert.Equal(t, want, got)
			for _, loc := range locs {
				assert.Equal(t, fromJSON.GroupLabel(3, loc), fromBin.GroupLabel(3, loc))
			}
		})
	}
}

// TestPartIndex: the related index joins the English locale of any engine
// (whatever the order of the files), once, and is no locale on its own.
func TestPartIndex(t *testing.T) {
	files := readPackFiles(t, "index.en.bin", "index.tr.bin", packfmt.RelatedIndexFile)
	en, err := Load(NewConfig(), files[0])
	require.NoError(t, err)
	for _, r := range en.Search("thawing", Options{Limit: 24}).Results {
		assert.NotEqual(t, "thawing", r.Match, "a related word: not in index.en.bin")
	}
	tr, err := en.With(files[1])
	require.NoError(t, err)
	full, err := tr.With(files[2])
	require.NoError(t, err)
	assert.Equal(t, []string{"en", "tr"}, full.Locales())
	assert.Equal(t, []string{"en.related"}, full.Parts())
	assert.Empty(t, tr.Parts(), "receiver unchanged")
	other, err := Load(NewConfig(), files[2], files[1], files[0])
	require.NoError(t, err)
	for _, o := range []Options{{Limit: 10}, {Limit: 10, Locale: "tr"}, {Limit: 10, Locale: "en", Prefix: true}} {
		for _, q := range []string{"thawing", "thaw", "kedi", "sand", "snow"} {
			require.Equal(t, full.Search(q, o), other.Search(q, o), "%q %v", q, o)
		}
	}
	thawing := full.Search("thawing", Options{Limit: 5, Locale: "tr"})
	require.NotEmpty(t, thawing.Results)
	assert.Equal(t, "low", thawing.Results[0].Field)
	assert.Equal(t, "thawing", thawing.Results[0].Match)
	entry, _ := full.Get(thawing.Results[0].ID)
	assert.Equal(t, entry.Labels["tr"], thawing.Results[0].Label, "the label of the preferred locale")
	assert.NotEqual(t, entry.Labels["en"], entry.Labels["tr"])
	enOnly := full.Search("thawing", Options{Limit: 5, Locale: "en"})
	assert.Greater(t, enOnly.Results[0].Score, thawing.Results[0].Score, "English phrases count less under another locale")

	_, err = full.With(files[2])
	require.ErrorContains(t, err, "given twice")
	_, err = Load(NewConfig(), files[2])
	require.ErrorIs(t, err, ErrPack, "a part index alone")
	_, err = Load(NewConfig(), files[1], files[2])
	require.ErrorContains(t, err, "is required")

	// A part needs its locale's main index; part names and packs are checked.
	var decoded []*packfmt.Pack
	for _, f := range readPackFiles(t, "pack.en.json", "pack.tr.ext.json", "pack.tr.json") {
		p, err := packfmt.Decode(f)
		require.NoError(t, err)
		decoded = append(decoded, p)
	}
	var b bytes.Buffer
	require.NoError(t, WritePartIndex(&b, "more", decoded[0], decoded[1]))
	_, err = en.With(b.Bytes())
	require.ErrorContains(t, err, "without the main segment of tr")
	both, err := tr.With(b.Bytes())
	require.NoError(t, err)
	assert.Equal(t, []string{"tr.more"}, both.Parts())
	for _, bad := range []struct {
		part   string
		en     *packfmt.Pack
		packs  []*packfmt.Pack
		errMsg string
	}{
		{"", decoded[0], decoded[1:2], "part name"},
		{"Related", decoded[0], decoded[1:2], "part name"},
		{"x", decoded[2], decoded[1:2], "English core pack"},
		{"x", decoded[0], nil, "no pack"},
		{"x", decoded[0], decoded[1:3], "not an extension pack"},
	} {
		require.ErrorContains(t, WritePartIndex(&bytes.Buffer{}, bad.part, bad.en, bad.packs...), bad.errMsg, bad.part)
	}
}

// TestAssocShortPrefix: a word of one or two bytes being typed completes in
// every segment but the associations' part (index.assocMinPrefix), where
// it still matches a word exactly; from three bytes on, the associations
// complete it too.
func TestAssocShortPrefix(t *testing.T) {
	files := readPackFiles(t, "index.en.bin", packfmt.PartIndexFile("en", packfmt.AssocPart), packfmt.AssocPackFile("en"))
	without, err := Load(NewConfig(), files[0])
	require.NoError(t, err)
	with, err := without.With(files[1])
	require.NoError(t, err)
	require.Equal(t, []string{"en.assoc"}, with.Parts())
	assoc, err := packfmt.Decode(files[2])
	require.NoError(t, err)
	words := map[string]bool{} // the words of the associations
	for _, r := range assoc.Rows {
		for _, p := range r.Phrases[packfmt.FieldAlias] {
			for _, w := range Tokenize(Normalize(p, MaxQueryLength)) {
				words[w] = true
			}
		}
	}
	o := Options{Limit: 24, Prefix: true}
	same, completed := 0, 0
	for a := 'a'; a <= 'z'; a++ {
		for _, q := range []string{string(a), string(a) + "e", string(a) + "o"} {
			if words[q] {
				continue // an exact match there
			}
			assert.Equal(t, without.Search(q, o), with.Search(q, o), q)
			same++
		}
		for _, q := range []string{string(a) + "ea", string(a) + "oo"} {
			if !slices.Equal(ids(without.Search(q, o)), ids(with.Search(q, o))) {
				completed++
			}
		}
	}
	assert.Greater(t, same, 30)
	assert.Greater(t, completed, 10, "three letters complete in the associations")
	q := "that was awk" // a long query: only its last word is short or not
	assert.NotEqual(t, ids(without.Search(q, o)), ids(with.Search(q, o)))
}

// TestWithMixesIndexesAndPacks: With adds a binary locale or JSON packs
// to an engine and reuses what is loaded.
func TestWithMixesIndexesAndPacks(t *testing.T) {
	en, err := Load(NewConfig(), readPackFiles(t, "index.en.bin")...)
	require.NoError(t, err)
	tr, err := en.With(readPackFiles(t, "index.tr.bin")...)
	require.NoError(t, err)
	assert.Equal(t, []string{"en", "tr"}, tr.Locales())
	assert.Equal(t, []string{"en"}, en.Locales(), "receiver unchanged")
	assert.Equal(t, "🐈", textKey(tr.Search("kedi", Options{Limit: 1, Locale: "tr"}).Results[0].Emoji))
	_, err = tr.With(readPackFiles(t, "index.tr.bin")...)
	require.ErrorContains(t, err, "given twice")

	// JSON packs over a binary en: the JSON locale is indexed on the spot.
	js, err := Load(NewConfig(), readPackFiles(t, "pack.en.json", "pack.fr.json")...)
	require.NoError(t, err)
	more, err := js.With(readPackFiles(t, "pack.fr.ext.json")...)
	require.NoError(t, err)
	assert.Equal(t, []string{"en", "fr"}, more.Locales())
}

// TestIndexBadBytes: a damaged index is ErrPack (the decoder's own cases
// are engine/internal/index's TestDecodeBadBytes and FuzzDecodeSegment); a
// locale's index needs English's.
func TestIndexBadBytes(t *testing.T) {
	en := readPackFiles(t, "index.en.bin")[0]
	_, err := Load(NewConfig(), en[:len(en)/2])
	require.ErrorIs(t, err, ErrPack)
	require.ErrorIs(t, err, index.ErrFormat)
	tr := readPackFiles(t, "index.tr.bin")[0]
	_, err = Load(NewConfig(), tr)
	require.ErrorContains(t, err, "is required")
}
