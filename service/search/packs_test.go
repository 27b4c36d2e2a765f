package search

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/engine"
)

// faultLoader reads the pack files of the repository; files named in fail
// fail to load, files in corrupt load as garbage, and a load of a file in
// block waits until the channel closes. It counts the loads of each file.
type faultLoader struct {
	dir string

	mu      sync.Mutex
	fail    map[string]bool
	corrupt map[string]bool
	block   map[string]chan struct{}
	loads   map[string]int
}

func newFaultLoader(t *testing.T) *faultLoader {
	return &faultLoader{dir: filepath.Join(packDir, version(t)), fail: map[string]bool{}, corrupt: map[string]bool{},
		block: map[string]chan struct{}{}, loads: map[string]int{}}
}

func (l *faultLoader) LoadPack(ctx context.Context, name string) ([]byte, error) {
	l.mu.Lock()
	l.loads[name]++
	fail, corrupt, block := l.fail[name], l.corrupt[name], l.block[name]
	l.mu.Unlock()
	if block != nil {
		select {
		case <-block:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	switch {
	case fail:
		return nil, errors.New("assets unreachable")
	case corrupt:
		return []byte("ESIDX\x00\x00\x00 not an index"), nil
	}
	return os.ReadFile(filepath.Join(l.dir, name))
}

func (l *faultLoader) set(f func(l *faultLoader)) {
	l.mu.Lock()
	defer l.mu.Unlock()
	f(l)
}

func (l *faultLoader) count(name string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.loads[name]
}

func newPacks(t *testing.T, loader PackLoader) *Packs {
	t.Helper()
	builtin := map[string][]byte{}
	for _, n := range []string{"index.en.bin", "index.tr.bin", ManifestFile} {
		b, err := os.ReadFile(filepath.Join(packDir, version(t), n))
		require.NoError(t, err)
		builtin[n] = b
	}
	p, err := NewPacks(builtin, loader)
	require.NoError(t, err)
	return p
}

// hasRelatedWord reports whether the locale's engine finds "thawing" as
// itself: a related word, which only index.en.related.bin has.
func hasRelatedWord(t *testing.T, p *Packs, locale string) (bool, error) {
	t.Helper()
	eng, err := p.Engine(context.Background(), locale)
	require.NotNil(t, eng, "an engine even without the related words")
	for _, r := range eng.Search("thawing", engine.Options{Limit: 24, Locale: locale}).Results {
		if r.Match == "thawing" {
			return true, err
		}
	}
	return false, err
}

// TestPacksRelatedWords: the related words load once per instance, on
// first use, and join every locale's engine (built in or loaded).
func TestPacksRelatedWords(t *testing.T) {
	l := newFaultLoader(t)
	p := newPacks(t, l)
	assert.Zero(t, l.count(RelatedIndex), "NewPacks does no I/O")
	for _, loc := range []string{"en", "tr", "fr", "en", "fr"} {
		found, err := hasRelatedWord(t, p, loc)
		require.NoError(t, err, loc)
		assert.True(t, found, loc)
	}
	assert.Equal(t, 1, l.count(RelatedIndex), "read once per instance")
	assert.Equal(t, 1, l.count("index.fr.bin"))
	assert.Zero(t, l.count("index.en.bin")+l.count("index.tr.bin"), "built in")
	emoji, ok := p.Emoji("1F602")
	assert.True(t, ok)
	assert.Equal(t, "😂", emoji)
}

// TestPacksRelatedWordsFail: while the related words do not load (or do not
// decode), every locale answers from its engine without them, marked
// incomplete; the next request tries again.
func TestPacksRelatedWordsFail(t *testing.T) {
	for _, mode := range []string{"fail", "corrupt"} {
		t.Run(mode, func(t *testing.T) {
			l := newFaultLoader(t)
			l.set(func(l *faultLoader) {
				l.fail[RelatedIndex], l.corrupt[RelatedIndex] = mode == "fail", mode == "corrupt"
			})
			p := newPacks(t, l)
			for _, loc := range []string{"en", "tr", "fr"} {
				found, err := hasRelatedWord(t, p, loc)
				require.ErrorIs(t, err, ErrIncomplete, loc)
				assert.ErrorContains(t, err, RelatedIndex)
				assert.False(t, found, loc)
			}
			assert.Equal(t, 3, l.count(RelatedIndex), "a failed load is not remembered")
			assert.Equal(t, 1, l.count("index.fr.bin"), "the locale's own index is kept")

			l.set(func(l *faultLoader) { l.fail, l.corrupt = map[string]bool{}, map[string]bool{} })
			for _, loc := range []string{"fr", "en", "tr"} {
				found, err := hasRelatedWord(t, p, loc)
				require.NoError(t, err, loc)
				assert.True(t, found, loc)
			}
			assert.Equal(t, 4, l.count(RelatedIndex))
		})
	}
}

// A locale whose own index fails gets no engine; the related words are not
// even asked for.
func TestPacksLocaleFails(t *testing.T) {
	l := newFaultLoader(t)
	l.set(func(l *faultLoader) { l.fail["index.fr.bin"] = true })
	p := newPacks(t, l)
	eng, err := p.Engine(context.Background(), "fr")
	require.Error(t, err)
	assert.NotErrorIs(t, err, ErrIncomplete)
	assert.Nil(t, eng)
	assert.Zero(t, l.count(RelatedIndex))

	eng, err = newPacks(t, nil).Engine(context.Background(), "en")
	require.ErrorIs(t, err, ErrIncomplete, "without a loader, the related words never load")
	assert.NotNil(t, eng)
	_, err = newPacks(t, nil).Engine(context.Background(), "fr")
	require.Error(t, err)
}

// No lock is held while the related words load: other requests (another
// locale, Emoji) go on meanwhile.
func TestPacksNoLockAcrossIO(t *testing.T) {
	l := newFaultLoader(t)
	release := make(chan struct{})
	l.set(func(l *faultLoader) { l.block[RelatedIndex] = release })
	p := newPacks(t, l)
	done := make(chan error, 1)
	go func() {
		_, err := p.Engine(context.Background(), "en")
		done <- err
	}()
	require.Eventually(t, func() bool { return l.count(RelatedIndex) == 1 }, 5*time.Second, time.Millisecond)
	_, ok := p.Emoji("1F602")
	assert.True(t, ok, "Emoji does not wait")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	eng, err := p.Engine(ctx, "tr") // its related load is cancelled at once
	require.ErrorIs(t, err, ErrIncomplete)
	assert.Equal(t, []string{"en", "tr"}, eng.Locales())
	close(release)
	require.NoError(t, <-done)
	found, err := hasRelatedWord(t, p, "tr")
	require.NoError(t, err)
	assert.True(t, found)
}

// The search service answers from the engine without the related words,
// uncached (no-store), and caches again once they load.
func TestRelatedWordsFailAnswersUncached(t *testing.T) {
	l := newFaultLoader(t)
	l.set(func(l *faultLoader) { l.fail[RelatedIndex] = true })
	cache := &memCache{m: map[string][]byte{}}
	s := New(Config{PackVersion: version(t), Model: "glove-cldr@100", DataHash: "h1", Packs: newPacks(t, l), Meaning: meaning{}, Cache: cache})
	for _, q := range []string{"q=joy", "q=kedi&locale=tr"} {
		rec, res := get(t, s, q)
		require.Equal(t, 200, rec.Code, q)
		assert.Equal(t, "no-store", rec.Header().Get("Cache-Control"), q)
		require.NotNil(t, res.AliasLocale, "%s: the alias tier answers without the related words", q)
		assert.Equal(t, "alias", res.Results[0].Source, q)
		assert.False(t, res.Degraded, q)
	}
	assert.Empty(t, cache.m, "never cached")

	l.set(func(l *faultLoader) { l.fail = map[string]bool{} })
	rec, _ := get(t, s, "q=joy")
	assert.Equal(t, "public, max-age=3600, s-maxage=86400", rec.Header().Get("Cache-Control"))
	assert.Len(t, cache.m, 1)
}

// TestPacksNothingBuiltIn is the Worker's setup (packs/dist): English loads
// from the assets on first use, once, and every locale extends it; a
// failed English load is not remembered.
func TestPacksNothingBuiltIn(t *testing.T) {
	l := newFaultLoader(t)
	manifest, err := os.ReadFile(filepath.Join(packDir, version(t), ManifestFile))
	require.NoError(t, err)
	p, err := NewPacks(map[string][]byte{ManifestFile: manifest}, l)
	require.NoError(t, err)
	_, ok := p.Emoji("1F602")
	assert.False(t, ok, "no emoji before English has loaded")

	l.set(func(l *faultLoader) { l.fail["index.en.bin"] = true })
	eng, err := p.Engine(t.Context(), "tr")
	require.Error(t, err)
	assert.Nil(t, eng)

	l.set(func(l *faultLoader) { l.fail = map[string]bool{} })
	for _, loc := range []string{"tr", "en", "fr", "tr"} {
		found, err := hasRelatedWord(t, p, loc)
		require.NoError(t, err, loc)
		assert.True(t, found, loc)
	}
	assert.Equal(t, 2, l.count("index.en.bin"), "one failed load, then once")
	assert.Equal(t, 1, l.count("index.tr.bin"))
	emoji, ok := p.Emoji("1F602")
	assert.True(t, ok)
	assert.Equal(t, "😂", emoji)

	// The same answers as with English and Turkish built in.
	built := newPacks(t, newFaultLoader(t))
	for _, loc := range []string{"en", "tr"} {
		a, err := p.Engine(t.Context(), loc)
		require.NoError(t, err)
		b, err := built.Engine(t.Context(), loc)
		require.NoError(t, err)
		for _, q := range []string{"cat", "kedi", "thawing", "mutlu", "party popper"} {
			opts := engine.Options{Limit: 10, Locale: loc}
			assert.Equal(t, b.Search(q, opts).Results, a.Search(q, opts).Results, "%s %q", loc, q)
		}
	}

	_, err = NewPacks(map[string][]byte{"index.tr.bin": nil}, l)
	assert.Error(t, err, "Turkish built in needs English built in")
	_, err = NewPacks(nil, nil)
	assert.Error(t, err)
}

// TestPrefetch: the first search warms the configured locales in its
// waitUntil, once per instance, after its own answer.
func TestPrefetch(t *testing.T) {
	l := newFaultLoader(t)
	p, err := NewPacks(nil, l)
	require.NoError(t, err)
	var tasks []func(context.Context)
	s := New(Config{PackVersion: version(t), DataHash: "h", Packs: p, Prefetch: []string{"en", "tr"},
		Background: func(ctx context.Context, fn func(context.Context)) { tasks = append(tasks, fn) }})
	rec, _ := get(t, s, "q=cat")
	require.Equal(t, 200, rec.Code)
	assert.Zero(t, l.count("index.tr.bin"), "not before the answer")
	require.Len(t, tasks, 1)
	tasks[0](t.Context())
	assert.Equal(t, 1, l.count("index.en.bin"), "the request loaded English; the prefetch found it")
	assert.Equal(t, 1, l.count("index.tr.bin"))
	get(t, s, "q=dog")
	assert.Len(t, tasks, 1, "once per instance")
}

// TestPacksParts: the part indexes the manifest lists (editorial phrases,
// associations) join the engines like the related words: English to every
// locale, a locale's own to that locale; each file is read once per
// instance, and one that does not load leaves the answer usable but
// incomplete.
func TestPacksParts(t *testing.T) {
	l := newFaultLoader(t)
	p := newPacks(t, l)
	for _, tc := range []struct {
		locale, q, emoji, field string
		parts                   []string
	}{
		{"en", "thank you", "🙏", "editorial", []string{"en.related", "en.editorial", "en.assoc"}},
		{"fr", "merci", "🙏", "editorial", []string{"en.related", "en.editorial", "en.assoc", "fr.editorial", "fr.assoc"}},
		{"tr", "teşekkürler", "🙏", "editorial", []string{"en.related", "en.editorial", "en.assoc", "tr.editorial", "tr.assoc"}},
		{"fr", "merci", "🙏", "editorial", []string{"en.related", "en.editorial", "en.assoc", "fr.editorial", "fr.assoc"}},
		// Phrases only the associations hold (pack.<locale>.assoc.json).
		{"en", "that was awkward", "😅", "alias", []string{"en.related", "en.editorial", "en.assoc"}},
		{"fr", "je me suis fait griller", "😅", "alias", []string{"en.related", "en.editorial", "en.assoc", "fr.editorial", "fr.assoc"}},
	} {
		eng, err := p.Engine(context.Background(), tc.locale)
		require.NoError(t, err, tc.locale)
		assert.Equal(t, tc.parts, eng.Parts())
		out := eng.Search(tc.q, engine.Options{Limit: 3, Locale: tc.locale})
		require.NotEmpty(t, out.Results, tc.q)
		assert.Equal(t, tc.emoji, out.Results[0].Emoji, tc.q)
		assert.Equal(t, tc.field, out.Results[0].Field, tc.q)
	}
	assert.Equal(t, 1, l.count("index.en.editorial.bin"))
	assert.Equal(t, 1, l.count("index.fr.editorial.bin"))
	assert.Equal(t, 1, l.count("index.fr.assoc.bin"))

	l.set(func(l *faultLoader) { l.fail["index.es.editorial.bin"] = true })
	eng, err := p.Engine(context.Background(), "es")
	require.ErrorIs(t, err, ErrIncomplete)
	require.NotNil(t, eng)
	l.set(func(l *faultLoader) { delete(l.fail, "index.es.editorial.bin") })
	eng, err = p.Engine(context.Background(), "es")
	require.NoError(t, err, "the next request tries again")
	assert.Contains(t, eng.Parts(), "es.editorial")
}
