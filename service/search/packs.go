package search

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/emojisearch/emojisearch/engine"
	"github.com/emojisearch/emojisearch/engine/packfmt"
)

// PackLoader fetches a file of the served pack version by name
// ("index.fr.bin"); in the Worker it reads the static assets.
type PackLoader interface {
	LoadPack(ctx context.Context, name string) ([]byte, error)
}

// RelatedIndex is the part index of the related words of the English
// extension pack (packs/FORMAT.md, "Binary index"). The built-in English
// index leaves them out, so the module stays small; every locale's engine
// gets them once they have loaded.
const RelatedIndex = "index.en.related.bin"

// relatedPart is the locale and part RelatedIndex holds (engine.Parts).
const relatedPart = "en.related"

// ManifestFile is the pack version's manifest.json: when the built-in files
// hold it, the part indexes it lists of the editorial phrases
// (index.<locale>.editorial.bin, packs/FORMAT.md "Editorial phrases") and
// of the associations (index.<locale>.assoc.bin, "Associations") are added
// to the engines like the related words: the English ones to every locale,
// a locale's own to that locale.
const ManifestFile = "manifest.json"

// localeParts are the parts of the part indexes a locale may have, in the
// order they join its engine (which keeps a locale's segments together).
var localeParts = []string{packfmt.EditorialPart, packfmt.AssocPart}

// Packs holds one alias engine per locale for the life of an instance:
// English plus the locale's core and extension packs (spec 1, Locale rules
// 3). Engines are built from pre-normalised binary indexes (packs/
// FORMAT.md, "Binary index"), one per locale holding its core and
// extension phrases, which load in about a millisecond. Indexes given to
// NewPacks are built in; the others, English included when it is not given,
// are read from the static assets on first use (the Worker builds none in:
// packs/dist says why; Prefetch warms them).
// The English index holds the English extension phrases too, so every
// locale also sees those (a superset of "English core"), except the related
// words: they are read from the static assets (RelatedIndex) once per
// instance, on first use, and added to each locale's engine.
type Packs struct {
	loader PackLoader

	mu      sync.Mutex
	base    map[string]*engine.Engine // by locale, without the part indexes
	engines map[string]*engine.Engine // by locale, complete
	parts   map[string][]byte         // part indexes by file name, once loaded and decoded
	listed  map[string]bool           // the indexes the manifest lists
}

// BuiltinLocales are the locales whose indexes NewPacks builds in when it
// is given them (spec 1 Locale rules 4).
var BuiltinLocales = []string{"en", "tr"}

// englishIndex is the English index's file name; every locale's engine
// extends English.
const englishIndex = "index.en.bin"

// NewPacks builds the engines of the built-in locales from their binary
// indexes keyed by file name ("index.en.bin", "index.tr.bin"); with none
// given, every locale, English first, loads from loader on first use. It
// does no I/O: the related words load on first use too.
func NewPacks(builtin map[string][]byte, loader PackLoader) (*Packs, error) {
	p := &Packs{loader: loader, base: map[string]*engine.Engine{}, engines: map[string]*engine.Engine{},
		parts: map[string][]byte{}, listed: map[string]bool{}}
	if m, ok := builtin[ManifestFile]; ok {
		var manifest struct {
			Indexes map[string]json.RawMessage `json:"indexes"`
		}
		if err := json.Unmarshal(m, &manifest); err != nil {
			return nil, fmt.Errorf("search: %s: %w", ManifestFile, err)
		}
		for name := range manifest.Indexes {
			p.listed[name] = true
		}
	}
	enIndex, ok := builtin[englishIndex]
	if !ok {
		for name := range builtin {
			if name != ManifestFile {
				return nil, errors.New("search: a built-in locale needs the English index built in too")
			}
		}
		if loader == nil {
			return nil, errors.New("search: no built-in English index and no pack loader")
		}
		return p, nil
	}
	for _, locale := range BuiltinLocales {
		files := [][]byte{enIndex}
		if locale != "en" {
			idx, ok := builtin["index."+locale+".bin"]
			if !ok {
				return nil, fmt.Errorf("search: built-in index of %s missing", locale)
			}
			files = append(files, idx)
		}
		eng, err := engine.Load(engine.NewConfig(), files...)
		if err != nil {
			return nil, fmt.Errorf("search: built-in %s packs: %w", locale, err)
		}
		p.base[locale] = eng
	}
	return p, nil
}

// Engine returns the locale's engine, loading its packs and its part
// indexes (the related words, the editorial phrases of English and of the
// locale) on first use. When the locale's own index does not load, it
// returns nil and the error. When only part indexes do not load (or do not
// decode), it returns the engine without them and an error wrapping
// ErrIncomplete: the answer is usable but must not be cached. A failed load
// is not remembered: the next request tries again. No lock is held while
// loading (the load awaits I/O that other requests must not wait behind on
// a shared instance).
func (p *Packs) Engine(ctx context.Context, locale string) (*engine.Engine, error) {
	p.mu.Lock()
	eng, done := p.engines[locale]
	base, ok := p.base[locale]
	english := p.base["en"]
	p.mu.Unlock()
	if done {
		return eng, nil
	}
	if p.loader == nil {
		if !ok {
			return nil, fmt.Errorf("search: no pack loader for locale %s", locale)
		}
		return base, fmt.Errorf("%w: no pack loader for %s", ErrIncomplete, RelatedIndex)
	}
	if english == nil {
		var err error
		if english, err = p.loadEnglish(ctx); err != nil {
			return nil, err
		}
		if locale == "en" {
			base, ok = english, true
		}
	}
	if !ok {
		idx, err := p.loader.LoadPack(ctx, "index."+locale+".bin")
		if err != nil {
			return nil, err
		}
		// Extending the English engine reuses its index instead of rebuilding it.
		if base, err = english.With(idx); err != nil {
			return nil, err
		}
		p.mu.Lock()
		if existing, ok := p.base[locale]; ok {
			base = existing
		} else {
			p.base[locale] = base
		}
		p.mu.Unlock()
	}
	names, want := []string{RelatedIndex}, []string{relatedPart}
	for _, loc := range []string{"en", locale} {
		for _, part := range localeParts {
			if n := packfmt.PartIndexFile(loc, part); p.listed[n] && !slices.Contains(names, n) {
				names, want = append(names, n), append(want, loc+"."+part)
			}
		}
	}
	files := make([][]byte, len(names))
	for i, n := range names {
		p.mu.Lock()
		b := p.parts[n]
		p.mu.Unlock()
		if b == nil {
			var err error
			if b, err = p.loader.LoadPack(ctx, n); err != nil {
				return base, fmt.Errorf("%w: %s: %w", ErrIncomplete, n, err)
			}
		}
		files[i] = b
	}
	// The engine views the bytes in place: all locales share one copy.
	eng, err := base.With(files...)
	if err == nil && !slices.Equal(eng.Parts(), want) {
		err = fmt.Errorf("parts %v, want %v", eng.Parts(), want)
	}
	if err != nil {
		return base, fmt.Errorf("%w: %s: %w", ErrIncomplete, strings.Join(names, ", "), err)
	}
	p.mu.Lock()
	for i, n := range names {
		if p.parts[n] == nil {
			p.parts[n] = files[i]
		}
	}
	if existing, ok := p.engines[locale]; ok {
		eng = existing
	} else {
		p.engines[locale] = eng
	}
	p.mu.Unlock()
	return eng, nil
}

// loadEnglish reads the English index from the loader (once it has
// loaded, every later call finds it in base).
func (p *Packs) loadEnglish(ctx context.Context) (*engine.Engine, error) {
	idx, err := p.loader.LoadPack(ctx, englishIndex)
	if err != nil {
		return nil, err
	}
	eng, err := engine.Load(engine.NewConfig(), idx)
	if err != nil {
		return nil, fmt.Errorf("search: %s: %w", englishIndex, err)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if existing, ok := p.base["en"]; ok {
		return existing, nil // another request won
	}
	p.base["en"] = eng
	return eng, nil
}

// Prefetch loads the locales' engines (and the related words), so the
// requests that need them find them ready; run it in the first request's
// waitUntil. Failures are left for those requests to meet and retry.
func (p *Packs) Prefetch(ctx context.Context, locales ...string) {
	for _, l := range locales {
		_, _ = p.Engine(ctx, l)
	}
}

// Emoji returns the emoji of an id from the English index, which holds
// every emoji (the meaning tier's vector files name emoji by id); false
// before English has loaded.
func (p *Packs) Emoji(id string) (string, bool) {
	p.mu.Lock()
	english := p.base["en"]
	p.mu.Unlock()
	if english == nil {
		return "", false
	}
	return english.EmojiOf(id)
}
