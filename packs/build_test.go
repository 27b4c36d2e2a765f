package packs

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/engine"
	"github.com/emojisearch/emojisearch/engine/packfmt"
	"github.com/emojisearch/emojisearch/packs/associations"
)

func ptr[T any](v T) *T { return &v }

// fixture is a small, hand-written input set: enough emoji to pass the
// size check, with one gendered ZWJ family and a locale without emojibase.
func fixture() *Inputs {
	var en []ebEntry
	add := func(hex, emoji, label string, group, sub int, ver float64, tags ...string) {
		en = append(en, ebEntry{Label: label, Hexcode: hex, Emoji: emoji, Tags: tags, Group: ptr(group),
			Subgroup: ptr(sub), Order: ptr(len(en)), Version: ptr(ver)})
	}
	add("1F602", "😂", "face with tears of joy", 0, 0, 0.6, "joy", "laugh")
	add("1F9D1-200D-1F4BB", "🧑‍💻", "technologist", 1, 25, 12.1, "coder")
	add("1F468-200D-1F4BB", "👨‍💻", "man technologist", 1, 25, 4, "coder")
	en[len(en)-1].Gender = ptr(1)
	add("1F3FB", "🏻", "light skin tone", 2, 32, 1)
	for i := range 1600 {
		add("E"+hex.EncodeToString([]byte{byte(i >> 8), byte(i)}), "x", "filler", 7, 70, 1)
	}
	en = append(en, ebEntry{Label: "regional indicator A", Hexcode: "1F1E6", Emoji: "🇦", Version: ptr(0.0)})
	return &Inputs{
		Versions:   Pinned,
		Emojibase:  map[string][]ebEntry{"en": en},
		Shortcodes: map[string]map[string]map[string][]string{"en": {"github": {"1F602": {"joy"}}, "emojibase-legacy": {"1F602": {"joy_tears"}}}},
		Messages:   map[string]ebMessages{"en": {Groups: []ebMessage{{Key: "smileys-emotion", Message: "smileys & emotion", Order: 0}}}},
		CLDR: map[string]map[string]cldrAnn{
			"en": {"😂": {Default: []string{"face", "joy", "laugh|x"}, TTS: []string{"face with tears of joy"}}},
			"tr": {"😂": {Default: []string{"gülmek"}, TTS: []string{"sevinç gözyaşları"}}},
		},
	}
}

var indexer = &Indexer{Locale: engine.WriteIndex, Part: engine.WritePartIndex, Terms: &TermRules{Stem: engine.Stem, Unspaced: engine.IsUnspaced, Tokenize: engine.Tokenize}}

func TestBuildDeterministicAndRoundTrip(t *testing.T) {
	locales := []string{"en", "tr"}
	a, err := Build(fixture(), "test1", locales, indexer)
	require.NoError(t, err)
	b, err := Build(fixture(), "test1", locales, indexer)
	require.NoError(t, err)
	require.Equal(t, a, b, "same inputs, same bytes")
	names := []string{}
	for _, f := range a {
		names = append(names, f.Name)
	}
	assert.Equal(t, []string{"pack.en.json", "pack.en.ext.json", "pack.tr.json", "pack.tr.ext.json",
		"index.en.bin", packfmt.CoreIndexFile, "device.en.bin", "index.tr.bin", "device.tr.bin", "manifest.json"}, names)
	eng, err := engine.Load(engine.NewConfig(), a[4].Data, a[7].Data)
	require.NoError(t, err)
	assert.Equal(t, "😂", eng.Search("gülmek", engine.Options{Limit: 1, Locale: "tr"}).Results[0].Emoji)
	// The client's index holds the English core pack's phrases and no more:
	// it answers as the core pack does, not as index.en.bin (ext phrases too).
	core, err := engine.Load(engine.NewConfig(), a[5].Data)
	require.NoError(t, err)
	fromJSON, err := engine.Load(engine.NewConfig(), a[0].Data)
	require.NoError(t, err)
	for _, q := range []string{"joy", "laugh", "tech", "face with"} {
		assert.Equal(t, fromJSON.Search(q, engine.Options{Limit: 5}).Results, core.Search(q, engine.Options{Limit: 5}).Results, q)
	}
	noIndex, err := Build(fixture(), "test1", locales, nil)
	require.NoError(t, err)
	assert.Len(t, noIndex, 5, "without an indexer, JSON packs and manifest only")

	en, err := packfmt.Decode(a[0].Data)
	require.NoError(t, err)
	require.Len(t, en.Rows, 1603, "components and regional indicators are left out")
	joy := en.Rows[0]
	assert.Equal(t, "1F602", joy.ID)
	assert.Equal(t, []string{"face with tears of joy"}, joy.Phrases[packfmt.FieldName])
	assert.Equal(t, []string{"joy"}, joy.Phrases[packfmt.FieldShortcode])
	assert.Equal(t, []string{"face", "laugh x"}, joy.Phrases[packfmt.FieldKeyword], "separator dropped, duplicate of a stronger field removed")
	assert.Equal(t, "1F9D1-200D-1F4BB", en.Rows[2].Family)

	// Re-encoding the decoded pack gives the same bytes.
	var buf bytes.Buffer
	require.NoError(t, packfmt.WritePack(&buf, en))
	assert.Equal(t, string(a[0].Data), buf.String())

	tr, err := packfmt.Decode(a[2].Data)
	require.NoError(t, err)
	assert.Equal(t, "sevinç gözyaşları", tr.Rows[0].Label)
	assert.Equal(t, "technologist", tr.Rows[1].Label, "display fallback")
	assert.Empty(t, tr.Rows[1].Phrases[packfmt.FieldName], "English fallback label is not searchable in tr")
}

// TestBuildRelatedIndex: the related words stay in the English extension
// pack but get a binary index of their own, index.en.related.bin, listed in
// the manifest; index.en.bin leaves them out.
func TestBuildRelatedIndex(t *testing.T) {
	in := fixture()
	in.Related = func(core, ext, others []packfmt.Row) map[string][]string {
		return map[string][]string{"1F602": {"chortle", "guffaw"}, "1F9D1-200D-1F4BB": {"hacker"}}
	}
	files, err := Build(in, "test1", []string{"en", "tr"}, indexer)
	require.NoError(t, err)
	byName := map[string]File{}
	var names []string
	for _, f := range files {
		byName[f.Name] = f
		names = append(names, f.Name)
	}
	assert.Equal(t, []string{"pack.en.json", "pack.en.ext.json", "pack.tr.json", "pack.tr.ext.json",
		"index.en.bin", packfmt.CoreIndexFile, "device.en.bin", packfmt.RelatedIndexFile, "index.tr.bin", "device.tr.bin", "manifest.json"}, names)
	assert.Equal(t, "index.en.related.bin", packfmt.RelatedIndexFile)

	ext, err := packfmt.Decode(byName["pack.en.ext.json"].Data)
	require.NoError(t, err)
	assert.Equal(t, "1F602", ext.Rows[0].ID)
	assert.Equal(t, []string{"chortle", "guffaw"}, ext.Rows[0].Phrases[packfmt.FieldLow], "the JSON pack keeps them")
	assert.Equal(t, []string{"joy_tears"}, ext.Rows[0].Phrases[packfmt.FieldShortcode])

	en, err := engine.Load(engine.NewConfig(), byName["index.en.bin"].Data)
	require.NoError(t, err)
	assert.Empty(t, en.Search("guffaw", engine.Options{Limit: 5}).Results, "not in index.en.bin")
	assert.Equal(t, "😂", en.Search("joy_tears", engine.Options{Limit: 1}).Results[0].Emoji, "the rest of the extension pack is")
	full, err := en.With(byName[packfmt.RelatedIndexFile].Data)
	require.NoError(t, err)
	assert.Equal(t, []string{"en"}, full.Locales())
	assert.Equal(t, []string{"en.related"}, full.Parts())
	got := full.Search("guffaw", engine.Options{Limit: 1}).Results
	require.Len(t, got, 1)
	assert.Equal(t, "😂", got[0].Emoji)
	assert.Equal(t, "low", got[0].Field)
	_, err = engine.Load(engine.NewConfig(), byName[packfmt.RelatedIndexFile].Data)
	require.Error(t, err, "a part index alone is not a locale")

	var m struct {
		Indexes map[string]manifestFile `json:"indexes"`
	}
	require.NoError(t, json.Unmarshal(byName["manifest.json"].Data, &m))
	sum := sha256.Sum256(byName[packfmt.RelatedIndexFile].Data)
	assert.Equal(t, hex.EncodeToString(sum[:]), m.Indexes[packfmt.RelatedIndexFile].SHA256)
	assert.Len(t, m.Indexes, 6)
	assert.Contains(t, m.Indexes, packfmt.CoreIndexFile)
}

func TestBuildFailsLoudly(t *testing.T) {
	in := fixture()
	in.Emojibase["en"][0].Label = ""
	in.Emojibase["en"] = append(in.Emojibase["en"], in.Emojibase["en"][1])
	_, err := Build(in, "x", []string{"en"}, nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "lacks hexcode, emoji, label or version")
	assert.Contains(t, err.Error(), "duplicate emojibase hexcode 1F9D1-200D-1F4BB")

	_, err = LoadInputs(t.TempDir(), []string{"en"})
	require.Error(t, err)

	dir := t.TempDir()
	for name, v := range Pinned {
		if name == "emojibase-data" {
			v = "16.0.0"
		}
		require.NoError(t, os.MkdirAll(filepath.Join(dir, name), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, name, "package.json"), []byte(`{"version":"`+v+`"}`), 0o644))
	}
	_, err = LoadInputs(dir, []string{"en"})
	require.ErrorContains(t, err, "emojibase-data is 16.0.0, the build is pinned to 17.0.0")
}

func TestFamilyKey(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"man technologist", "1F468-200D-1F4BB", "1F9D1-200D-1F4BB"},
		{"man running", "1F3C3-200D-2642-FE0F", "1F3C3"},
		{"facing right", "1F6B6-200D-27A1-FE0F", "1F6B6"},
		{"man walking facing right", "1F6B6-200D-2642-FE0F-200D-27A1-FE0F", "1F6B6"},
		{"man bouncing ball", "26F9-FE0F-200D-2642-FE0F", "26F9"},
		{"single", "1F602", "1F602"},
		{"man alone stays", "1F468", "1F468"},
	} {
		t.Run(tc.name, func(t *testing.T) { assert.Equal(t, tc.want, familyKey(tc.in)) })
	}
}

// TestCommittedPacks checks the committed build: manifest hashes match the
// files and indexes, every pack decodes and validates, core packs stay
// <= 120 KB gzip, every locale has its binary index, and the related words
// have theirs; a locale with associations has their pack and part indexes.
func TestCommittedPacks(t *testing.T) {
	dir := filepath.Join("dist", packfmt.DefaultVersion)
	mb, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	require.NoError(t, err)
	var m struct {
		PackVersion string                  `json:"packVersion"`
		Files       map[string]manifestFile `json:"files"`
		Indexes     map[string]manifestFile `json:"indexes"`
	}
	require.NoError(t, json.Unmarshal(mb, &m))
	require.Equal(t, packfmt.DefaultVersion, m.PackVersion)
	written, err := associations.Load(packfmt.Locales)
	require.NoError(t, err)
	files := []string{}
	names := []string{packfmt.RelatedIndexFile, packfmt.CoreIndexFile}
	for _, loc := range packfmt.Locales {
		files = append(files, "pack."+loc+".json", "pack."+loc+".ext.json")
		names = append(names, packfmt.IndexFile(loc), packfmt.PartIndexFile(loc, packfmt.EditorialPart), packfmt.DeviceIndexFile(loc))
		if len(written[loc]) > 0 {
			files = append(files, packfmt.AssocPackFile(loc))
			names = append(names, packfmt.PartIndexFile(loc, packfmt.AssocPart), packfmt.DevicePartFile(loc, packfmt.AssocPart))
		}
	}
	assert.ElementsMatch(t, files, slices.Collect(maps.Keys(m.Files)), "core, extension and, where written, associations")
	assert.ElementsMatch(t, names, slices.Collect(maps.Keys(m.Indexes)))
	for _, name := range names {
		mf, ok := m.Indexes[name]
		require.True(t, ok, name)
		b, err := os.ReadFile(filepath.Join(dir, name))
		require.NoError(t, err)
		sum := sha256.Sum256(b)
		assert.Equal(t, mf.SHA256, hex.EncodeToString(sum[:]), name)
	}
	for name, mf := range m.Files {
		b, err := os.ReadFile(filepath.Join(dir, name))
		require.NoError(t, err)
		sum := sha256.Sum256(b)
		assert.Equal(t, mf.SHA256, hex.EncodeToString(sum[:]), name)
		p, err := packfmt.Decode(b)
		require.NoError(t, err, name)
		assert.Equal(t, mf.Rows, len(p.Rows), name)
		if p.Part == packfmt.PartCore {
			var gz bytes.Buffer
			w, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
			w.Write(b)
			w.Close()
			assert.LessOrEqual(t, gz.Len(), 120*1024, name)
		}
	}
}

// TestBuildWords: the word lists of the ranking rules go into the English
// core pack only, as the engine gives them, and survive a decode and
// re-encode byte for byte.
func TestBuildWords(t *testing.T) {
	in := fixture()
	in.Words = engine.RankingWords()
	files, err := Build(in, "test1", []string{"en", "tr"}, nil)
	require.NoError(t, err)
	for _, f := range files[:4] {
		p, err := packfmt.Decode(f.Data)
		require.NoError(t, err, f.Name)
		if f.Name != "pack.en.json" {
			assert.Nil(t, p.Words, f.Name)
			continue
		}
		assert.Equal(t, in.Words, p.Words)
		var buf bytes.Buffer
		require.NoError(t, packfmt.WritePack(&buf, p))
		assert.Equal(t, string(f.Data), buf.String())
	}
}

// TestBuildRegionalVariants: the words of a locale's regional variants are
// aliases in its extension rows, without repeating its own words, and
// search finds them.
func TestBuildRegionalVariants(t *testing.T) {
	in := fixture()
	in.Variants = map[string]map[string][]string{"en": {"😂": {"laugh", "dying laughing"}}}
	files, err := Build(in, "test1", []string{"en"}, indexer)
	require.NoError(t, err)
	ext, err := packfmt.Decode(files[1].Data)
	require.NoError(t, err)
	require.Equal(t, "1F602", ext.Rows[0].ID)
	assert.Equal(t, []string{"dying laughing"}, ext.Rows[0].Phrases[packfmt.FieldKeyword], "the core keyword laugh is not repeated")
	eng, err := engine.Load(engine.NewConfig(), files[2].Data)
	require.NoError(t, err)
	assert.Equal(t, "😂", eng.Search("dying laughing", engine.Options{Limit: 1}).Results[0].Emoji)
}

// TestReadCLDRVariant: a regional variant may have no derived annotations
// (en-GB); its own annotations are read, keyed without FE0F.
func TestReadCLDRVariant(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "cldr-annotations-full", "annotations", "en-GB")
	require.NoError(t, os.MkdirAll(p, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(p, "annotations.json"),
		[]byte(`{"annotations":{"annotations":{"❤️":{"default":["love"],"tts":["red heart"]}}}}`), 0o644))
	ann, err := readCLDR(dir, "en-GB", false)
	require.NoError(t, err)
	assert.Equal(t, cldrAnn{Default: []string{"love"}, TTS: []string{"red heart"}}, ann["❤"])
	_, err = readCLDR(dir, "en-GB", true)
	require.ErrorContains(t, err, "annotationsDerived", "a pack locale needs its derived annotations")
	_, err = readCLDR(dir, "en-AU", false)
	require.Error(t, err, "a variant without annotations is an error")
}

// TestBuildPlacesAndAssociations: place words are aliases of the flag in
// the locale's extension rows; associations are aliases in
// pack.<locale>.assoc.json (the words no other phrase of the emoji has),
// which the locale's part index index.<locale>.assoc.bin holds and neither
// its index nor its device index does; a word for an emoji the packs lack
// is an error.
func TestBuildPlacesAndAssociations(t *testing.T) {
	in := fixture()
	in.Places = map[string]map[string][]string{"en": {"😂": {"lolland"}}}
	in.Associations = map[string]map[string][]string{"en": {"😂": {"lmao", "lolland", "crying laughing"}}}
	files, err := Build(in, "test1", []string{"en"}, indexer)
	require.NoError(t, err)
	byName := map[string][]byte{}
	for _, f := range files {
		byName[f.Name] = f.Data
	}
	ext, err := packfmt.Decode(byName["pack.en.ext.json"])
	require.NoError(t, err)
	assert.Equal(t, []string{"lolland"}, ext.Rows[0].Phrases[packfmt.FieldAlias])
	assoc, err := packfmt.Decode(byName[packfmt.AssocPackFile("en")])
	require.NoError(t, err)
	require.Len(t, assoc.Rows, 1)
	assert.Equal(t, packfmt.PartExt, assoc.Part)
	assert.Equal(t, "1F602", assoc.Rows[0].ID)
	assert.Equal(t, []string{"lmao", "crying laughing"}, assoc.Rows[0].Phrases[packfmt.FieldAlias])
	eng, err := engine.Load(engine.NewConfig(), byName[packfmt.IndexFile("en")], byName[packfmt.PartIndexFile("en", packfmt.AssocPart)])
	require.NoError(t, err)
	assert.Equal(t, []string{"en.assoc"}, eng.Parts())
	assert.Equal(t, "😂", eng.Search("lmao", engine.Options{Limit: 1}).Results[0].Emoji)
	in.Associations = nil
	without, err := Build(in, "test1", []string{"en"}, indexer)
	require.NoError(t, err)
	for _, f := range without {
		if f.Name == packfmt.DeviceIndexFile("en") || f.Name == packfmt.IndexFile("en") {
			assert.Equal(t, f.Data, byName[f.Name], "%s leaves the associations out", f.Name)
		}
		assert.NotEqual(t, packfmt.PartIndexFile("en", packfmt.AssocPart), f.Name, "no associations, no part index")
	}
	in.Associations = map[string]map[string][]string{"en": {}}

	in.Places["en"]["🇨🇱"] = []string{"chilean"}
	in.Associations["en"]["🫠"] = []string{"melting"}
	_, err = Build(in, "test1", []string{"en"}, indexer)
	require.ErrorContains(t, err, "packs: places en: no emoji 🇨🇱")
	require.ErrorContains(t, err, "packs: associations en: no emoji 🫠")
}

// TestBuildEmoticons: emoticons join emojibase's as English extension
// aliases; one for an emoji the packs lack is an error.
func TestBuildEmoticons(t *testing.T) {
	in := fixture()
	in.Emoticons = map[string][]string{"😂": {"x'D"}}
	files, err := Build(in, "test1", []string{"en"}, indexer)
	require.NoError(t, err)
	ext, err := packfmt.Decode(files[1].Data)
	require.NoError(t, err)
	assert.Equal(t, []string{"x'D"}, ext.Rows[0].Phrases[packfmt.FieldAlias])
	eng, err := engine.Load(engine.NewConfig(), files[2].Data)
	require.NoError(t, err)
	assert.Equal(t, "😂", eng.Search("x'D", engine.Options{Limit: 1}).Results[0].Emoji)

	in.Emoticons["🫠"] = []string{"~_~"}
	_, err = Build(in, "test1", []string{"en"}, indexer)
	require.ErrorContains(t, err, "packs: emoticons: no emoji 🫠")
}
