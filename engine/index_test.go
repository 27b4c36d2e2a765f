package engine

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/engine/internal/index"
	"github.com/emojisearch/emojisearch/packs/packfmt"
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
// (every 97th phrase), their prefixes, and hand-picked cases.
func traceQueries(e *Engine) []string {
	qs := []string{":joy:", "joy", "face with tea", "笑哭", "kedi", "gulmek", "smilng", "cats", "10:30", ":)", "👍🏽 cat", "wheel chair", ""}
	i := 0
	e.ix.EachPhrase(func(_ int, _ int32, _ uint8, text string) {
		if i++; i%97 == 0 {
			qs = append(qs, text)
			if r := []rune(text); len(r) > 3 {
				qs = append(qs, string(r[:3]), string(r[:len(r)-1]))
			}
		}
	})
	return qs
}

// TestIndexRoundTrip: the pack build's binary indexes (committed) equal a
// fresh WriteIndex of the committed JSON packs, and an engine loaded from
// them answers every query exactly as the engine built from the JSON packs.
func TestIndexRoundTrip(t *testing.T) {
	for _, locs := range [][]string{{"en"}, {"en", "tr"}, {"en", "zh", "hi", "ar"}} {
		t.Run(locs[len(locs)-1], func(t *testing.T) {
			var jsonFiles, binFiles [][]byte
			var decoded []*packfmt.Pack
			for _, loc := range locs {
				for _, f := range readPackFiles(t, "pack."+loc+".json", "pack."+loc+".ext.json") {
					jsonFiles = append(jsonFiles, f)
					p, err := packfmt.Decode(f)
					require.NoError(t, err)
					decoded = append(decoded, p)
				}
			}
			for _, loc := range locs {
				committed := readPackFiles(t, "index."+loc+".bin")[0]
				var b bytes.Buffer
				require.NoError(t, WriteIndex(&b, loc, decoded...))
				require.True(t, bytes.Equal(committed, b.Bytes()), "index.%s.bin is stale: run the pack build", loc)
				binFiles = append(binFiles, committed)
			}
			fromJSON, err := Load(NewConfig(), jsonFiles...)
			require.NoError(t, err)
			fromBin, err := Load(NewConfig(), binFiles...)
			require.NoError(t, err)
			assert.Equal(t, fromJSON.Locales(), fromBin.Locales())
			assert.Equal(t, fromJSON.Len(), fromBin.Len())
			for _, q := range traceQueries(fromJSON) {
				for _, loc := range append([]string{""}, locs...) {
					for _, prefix := range []bool{true, false} {
						o := Options{Limit: 24, Locale: loc, Prefix: prefix}
						require.Equal(t, fromJSON.Search(q, o), fromBin.Search(q, o), "%q %v", q, o)
					}
				}
			}
			got, ok := fromBin.Get("1F44B-1F3FD")
			require.True(t, ok)
			want, _ := fromJSON.Get("1F44B")
			assert.Equal(t, want, got)
		})
	}
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

// TestIndexBadBytes: damaged or foreign bytes give ErrPack, never a panic.
func TestIndexBadBytes(t *testing.T) {
	en := readPackFiles(t, "index.en.bin")[0]
	mutate := func(f func(b []byte) []byte) []byte { return f(bytes.Clone(en)) }
	for _, tc := range []struct {
		name string
		data []byte
	}{
		{"truncated", en[:len(en)/2]},
		{"header only", en[:16]},
		{"magic only", []byte(index.Magic)},
		{"other version", mutate(func(b []byte) []byte { binary.LittleEndian.PutUint16(b[8:], 99); return b })},
		{"section out of bounds", mutate(func(b []byte) []byte { binary.LittleEndian.PutUint32(b[16+4:], 1<<30); return b })},
		{"section misaligned", mutate(func(b []byte) []byte { binary.LittleEndian.PutUint32(b[16+8:], 3); return b })},
		{"bad width", mutate(func(b []byte) []byte { b[16] = 3; return b })},
		{"posting out of range", mutate(func(b []byte) []byte {
			off := int(binary.LittleEndian.Uint32(b[16+12*25+8:])) // terms postings (section 25)
			for i := range 8 {
				b[off+i] = 0xff
			}
			return b
		})},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Load(NewConfig(), tc.data)
			require.ErrorIs(t, err, ErrPack)
		})
	}
	tr := readPackFiles(t, "index.tr.bin")[0]
	_, err := Load(NewConfig(), tr)
	require.ErrorContains(t, err, "is required")
}

func FuzzLoadIndex(f *testing.F) {
	en := readPackFiles(f, "index.en.bin")[0]
	f.Add(en[:4096], 0, byte(0))
	f.Add(en[:1024], 100, byte(7))
	f.Fuzz(func(t *testing.T, head []byte, at int, v byte) {
		b := bytes.Clone(en)
		copy(b, head)
		if at >= 0 && at < len(b) {
			b[at] ^= v
		}
		e, err := Load(NewConfig(), b)
		if err == nil {
			e.Search("face", DefaultOptions())
			e.Search("笑", DefaultOptions())
		}
	})
}
