package search

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/emojisearch/emojisearch/engine"
)

// PackLoader fetches a pack file of the served version by name
// ("pack.fr.json"); in the Worker it reads the static assets.
type PackLoader interface {
	LoadPack(ctx context.Context, name string) ([]byte, error)
}

// Packs holds one alias engine per locale for the life of an instance:
// English core plus the locale's core and extension packs (spec 1, Locale
// rules 3). en and tr are built in; other locales load on first use.
type Packs struct {
	enCore []byte
	loader PackLoader

	mu      sync.Mutex
	engines map[string]*engine.Engine
}

// BuiltinLocales are the locales whose packs ship inside the module.
var BuiltinLocales = []string{"en", "tr"}

// NewPacks builds the engines of the built-in locales from files keyed by
// name ("pack.en.json", "pack.en.ext.json", "pack.tr.json", ...).
func NewPacks(builtin map[string][]byte, loader PackLoader) (*Packs, error) {
	enCore, ok := builtin["pack.en.json"]
	if !ok {
		return nil, errors.New("search: the English core pack must be built in")
	}
	p := &Packs{enCore: enCore, loader: loader, engines: map[string]*engine.Engine{}}
	for _, locale := range BuiltinLocales {
		files, err := p.files(locale, func(name string) ([]byte, error) {
			b, ok := builtin[name]
			if !ok {
				return nil, fmt.Errorf("search: built-in pack %s missing", name)
			}
			return b, nil
		})
		if err != nil {
			return nil, err
		}
		eng, err := engine.Load(engine.NewConfig(), files...)
		if err != nil {
			return nil, fmt.Errorf("search: built-in %s packs: %w", locale, err)
		}
		p.engines[locale] = eng
	}
	return p, nil
}

// files lists the pack files of a locale's engine, English core first.
func (p *Packs) files(locale string, read func(string) ([]byte, error)) ([][]byte, error) {
	names := []string{"pack." + locale + ".json", "pack." + locale + ".ext.json"}
	out := [][]byte{p.enCore}
	if locale == "en" {
		names = names[1:]
	}
	for _, n := range names {
		b, err := read(n)
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, nil
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
	files, err := p.files(locale, func(name string) ([]byte, error) { return p.loader.LoadPack(ctx, name) })
	if err != nil {
		return nil, err
	}
	eng, err = engine.Load(engine.NewConfig(), files...)
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
