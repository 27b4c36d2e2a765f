package culture

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/engine"
	ec "github.com/emojisearch/emojisearch/engine/culture"
	"github.com/emojisearch/emojisearch/engine/packfmt"
)

const distRoot = "../dist"

func committed(t *testing.T) (string, string) {
	t.Helper()
	v, err := PackVersion(distRoot)
	require.NoError(t, err)
	return v, filepath.Join(distRoot, v, Dir)
}

// TestCommittedCultureFiles checks every committed culture file: it parses,
// each emoji is in the packs under its hexcode, triggers are normalized like
// queries, windows lie in the 12 months from the file's first day, regional
// entries have scopes, contexts are not empty, ids are unique, and the index
// lists each file with its hash.
func TestCommittedCultureFiles(t *testing.T) {
	v, dir := committed(t)
	cat, err := LoadCatalog(filepath.Join(distRoot, v))
	require.NoError(t, err)
	ib, err := os.ReadFile(filepath.Join(dir, IndexName))
	require.NoError(t, err)
	var idx ec.Index
	require.NoError(t, jsonStrict(ib, &idx))
	assert.Equal(t, ec.IndexFormat, idx.Format)
	assert.Equal(t, v, idx.PackVersion)
	files, _ := filepath.Glob(filepath.Join(dir, "culture.*.json"))
	assert.Len(t, idx.Locales, len(files))
	ids := map[string]bool{}
	for loc, ie := range idx.Locales {
		t.Run(loc, func(t *testing.T) {
			assert.True(t, slices.Contains(packfmt.Locales, loc))
			b, err := os.ReadFile(filepath.Join(dir, ie.File))
			require.NoError(t, err)
			sum := sha256.Sum256(b)
			assert.Equal(t, hex.EncodeToString(sum[:]), ie.SHA256)
			assert.Equal(t, len(b), ie.Bytes)
			f, err := ec.Parse(b)
			require.NoError(t, err)
			assert.Equal(t, loc, f.Locale)
			assert.Equal(t, v, f.PackVersion)
			assert.Equal(t, idx.From, f.From)
			assert.Equal(t, LastDay(f.From), f.To)
			assert.Len(t, f.Entries, ie.Entries)
			assert.GreaterOrEqual(t, len(f.Entries), 15, "entries per locale")
			for _, e := range f.Entries {
				assert.False(t, ids[e.ID], "id %s unique across files", e.ID)
				ids[e.ID] = true
				assert.Regexp(t, `^`+loc+`\.[a-z0-9-]+$`, e.ID)
				hexcode, ok := cat.Lookup(e.Emoji)
				assert.True(t, ok, "%s: %s in the packs", e.ID, e.Emoji)
				assert.Equal(t, hexcode, e.Hexcode, e.ID)
				assert.NotEmpty(t, e.Context, e.ID)
				assert.NotEmpty(t, e.Triggers, e.ID)
				for _, tr := range e.Triggers {
					assert.Equal(t, engine.Normalize(tr, engine.MaxQueryLength), tr, e.ID)
				}
				if e.Kind == ec.KindRegional {
					assert.NotEmpty(t, e.Regions, e.ID)
				}
				if e.Kind == ec.KindSeasonal || e.Kind == ec.KindEvent {
					assert.NotEmpty(t, e.Windows, e.ID)
				}
				for _, w := range e.Windows {
					assert.True(t, f.From <= w.From && w.To <= f.To, "%s: window %v in %s..%s", e.ID, w, f.From, f.To)
				}
			}
		})
	}
}

// TestBuildDeterministic rebuilds from the sources twice and compares with
// the committed files byte for byte.
func TestBuildDeterministic(t *testing.T) {
	v, dir := committed(t)
	cat, err := LoadCatalog(filepath.Join(distRoot, v))
	require.NoError(t, err)
	srcs, err := ReadSources("data")
	require.NoError(t, err)
	a, err := Build(srcs, v, cat)
	require.NoError(t, err)
	b, err := Build(srcs, v, cat)
	require.NoError(t, err)
	assert.Equal(t, a, b)
	for name, data := range a {
		got, err := os.ReadFile(filepath.Join(dir, name))
		require.NoError(t, err, "%s is committed (go run ./packs/cmd/buildculture)", name)
		assert.True(t, bytes.Equal(data, got), "%s is stale: run go run ./packs/cmd/buildculture", name)
	}
}

func TestCompileRejects(t *testing.T) {
	cat := Catalog{"🎄": "1F384", "❤️": "2764"}
	ok := ec.Entry{ID: "en.x", Emoji: "🎄", Kind: ec.KindEvent, Weight: 0.5, Context: "x", Triggers: []string{"Xmas!", "xmas"}, Windows: []ec.Window{{From: "2026-12-01", To: "2026-12-26"}}}
	f, err := Compile(Source{Locale: "en", From: "2026-11-23", Entries: []ec.Entry{ok}}, "v", cat)
	require.NoError(t, err)
	assert.Equal(t, []string{"xmas"}, f.Entries[0].Triggers, "normalized, duplicates dropped")
	assert.Equal(t, "1F384", f.Entries[0].Hexcode)
	assert.Equal(t, "2027-11-22", f.To)

	heart := ok
	heart.Emoji = "❤"
	f, err = Compile(Source{Locale: "en", From: "2026-11-23", Entries: []ec.Entry{heart}}, "v", cat)
	require.NoError(t, err)
	assert.Equal(t, "2764", f.Entries[0].Hexcode, "text spelling accepted")

	missing := ok
	missing.Emoji = "🦄"
	late := ok
	late.ID, late.Windows = "en.y", []ec.Window{{From: "2027-11-20", To: "2027-11-30"}}
	_, err = Compile(Source{Locale: "en", From: "2026-11-23", Entries: []ec.Entry{missing, late}}, "v", cat)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "not in the packs")
	assert.Contains(t, err.Error(), "outside")
}

func TestLastDay(t *testing.T) {
	assert.Equal(t, "2027-11-22", LastDay("2026-11-23"))
	assert.Equal(t, "2028-02-29", LastDay("2027-03-01"))
}

// TestCommittedExamples applies committed culture files to canonical lists
// shaped like the engine's answers (spec 1 culture rules 2 and 3).
func TestCommittedExamples(t *testing.T) {
	_, dir := committed(t)
	load := func(loc string) *ec.File {
		b, err := os.ReadFile(filepath.Join(dir, FileName(loc)))
		require.NoError(t, err)
		f, err := ec.Parse(b)
		require.NoError(t, err)
		return f
	}
	top := func(ids ...string) []ec.Result {
		var rs []ec.Result
		for _, id := range ids {
			rs = append(rs, ec.Result{ID: id, Source: "alias"})
		}
		return rs
	}
	cases := []struct {
		name, loc, query, day, region string
		canonical                     []string
		want                          []string // leading ids
	}{
		{"football in GB leads with soccer", "en", "football", "2027-01-10", "GB", []string{"1F3C8", "1F3C9"}, []string{"26BD", "1F3C8", "1F3C9"}},
		{"football in the US stays American", "en", "football", "2027-01-10", "US", []string{"1F3C8", "1F3C9"}, []string{"1F3C8", "1F3C9"}},
		{"football without region", "en", "football", "2027-01-10", "", []string{"1F3C8", "1F3C9"}, []string{"1F3C8", "1F3C9"}},
		{"thanksgiving in the US adds pie after the turkey", "en", "thanksgiving", "2026-11-26", "US", []string{"1F983", "1F357"}, []string{"1F983", "1F967", "1F357"}},
		{"thanksgiving elsewhere is canonical", "en", "thanksgiving", "2026-11-26", "GB", []string{"1F983", "1F357"}, []string{"1F983", "1F357"}},
		{"tamam in Turkey avoids the OK hand", "tr", "tamam", "2027-01-10", "TR", []string{"1F44C", "1F44D"}, []string{"1F44D", "1F44C"}},
		{"dia de muertos in Mexico", "es", "día de muertos", "2027-11-01", "MX", []string{"1F480"}, []string{"1F480", "1F33C", "1F35E"}},
		{"dia de muertos elsewhere", "es", "día de muertos", "2027-11-01", "ES", []string{"1F480"}, []string{"1F480"}},
		{"carnaval in Brazil", "pt", "carnaval", "2027-02-08", "BR", []string{"1F389"}, []string{"1F389", "1F3AD"}},
		{"ok in Brazil leads with thumbs up", "pt", "ok", "2027-02-08", "BR", []string{"1F197", "1F44C"}, []string{"1F44D", "1F197", "1F44C"}},
		{"ok in Portugal", "pt", "ok", "2027-02-08", "PT", []string{"1F197", "1F44C"}, []string{"1F197", "1F44C"}},
		{"diwali", "hi", "दिवाली", "2027-10-29", "", []string{"1F386"}, []string{"1F386", "1FA94"}},
		{"diwali out of season", "hi", "दिवाली", "2027-06-01", "", []string{"1F386"}, []string{"1F386"}},
		{"spring festival", "zh", "春节快乐", "2027-02-06", "", []string{"1F389"}, []string{"1F389", "1F9E7"}},
		{"eid al-fitr", "ar", "عيد مبارك", "2027-03-10", "", []string{"1F54C"}, []string{"1F54C", "1F389"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := ec.ApplyCulture(load(c.loc), c.query, top(c.canonical...), ec.Options{Day: c.day, Region: c.region, Limit: 24})
			var ids []string
			for _, r := range got {
				ids = append(ids, r.ID)
			}
			require.GreaterOrEqual(t, len(ids), len(c.want), ids)
			assert.Equal(t, c.want, ids[:len(c.want)])
		})
	}
}
