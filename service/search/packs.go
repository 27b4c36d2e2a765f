package search

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/emojisearch/emojisearch/engine"
)

// PackLoader fetches a file of the served pack version by name
// ("index.fr.bin"); in the Worker it reads the static assets.
type PackLoader interface {
	LoadPack(ctx context.Context, name string) ([]byte, error)
}

// Packs holds one alias engine per locale for the life of an instance:
// English plus the locale's core and extension packs (spec 1, Locale rules
// 3). Engines are built from pre-normalised binary indexes (packs/
// FORMAT.md, "Binary index"), one per locale holding its core and
// extension phrases, which load in about a millisecond: en and tr are built
// in, other locales' indexes are read from the static assets on first use.
// The English index holds the English extension phrases too, so every
// locale also sees those (a superset of "English core").
type Packs struct {
	loader PackLoader

	mu      sync.Mutex
	engines map[string]*engine.Engine
}

// BuiltinLocales are the locales whose packs ship inside the module.
var BuiltinLocales = []string{"en", "tr"}

// NewPacks builds the engines of the built-in locales from their binary
// indexes keyed by file name ("index.en.bin", "index.tr.bin").
func NewPacks(builtin map[string][]byte, loader PackLoader) (*Packs, error) {
	enIndex, ok := builtin["index.en.bin"]
	if !ok {
		return nil, errors.New("search: the English index must be built in")
	}
	p := &Packs{loader: loader, engines: map[string]*engine.Engine{}}
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
		p.engines[locale] = eng
	}
	return p, nil
}

// Engine returns the locale's engine, loading its packs on first use. A
// failed load is not remembered: the next request tries again. No lock is
// held while loading (the load awaits I/O that other requests must not wait
// behind on a shared instance).
func (p *Packs) Engine(ctx context.Context, locale string) (*engine.Engine, error) {
	p.mu.Lock()
	eng, ok := p.engines[locale]
	p.mu.Unlock()
	if ok {
		return eng, nil
	}
	if p.loader == nil {
		return nil, fmt.Errorf("search: no pack loader for locale %s", locale)
	}
	idx, err := p.loader.LoadPack(ctx, "index."+locale+".bin")
	if err != nil {
		return nil, err
	}
	p.mu.Lock()
	english := p.engines["en"]
	p.mu.Unlock()
	// Extending the English engine reuses its index instead of rebuilding it.
	eng, err = english.With(idx)
	if err != nil {
		return nil, err
	}
	p.mu.Lock()
	if existing, ok := p.engines[locale]; ok {
		eng = existing
	} else {
		p.engines[locale] = eng
	}
	p.mu.Unlock()
	return eng, nil
}

// Emoji returns the emoji of an id from the built-in English index, which
// holds every emoji (the meaning tier's vector files name emoji by id).
func (p *Packs) Emoji(id string) (string, bool) {
	p.mu.Lock()
	english := p.engines["en"]
	p.mu.Unlock()
	e, ok := english.Get(id)
	return e.Emoji, ok
}
