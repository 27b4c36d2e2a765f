// Package engine is the alias (dictionary) engine of spec 3 in Go: an
// in-memory index built from packs (packs/FORMAT.md) and a synchronous search
// for every keystroke. It is pure Go and builds natively and for js/wasm.
//
//	eng, err := engine.Load(engine.NewConfig(), enCore, trCore, trExt)
//	out := eng.Search(":joy:", engine.DefaultOptions()) // out.Results[0].Emoji == "😂"
//
// Spec: shared/spec/3-client-library.md (createEngine, search, get, helpers).
package engine

import (
	"errors"
	"fmt"
	"slices"

	"github.com/emojisearch/emojisearch/engine/internal/index"
	"github.com/emojisearch/emojisearch/packs/packfmt"
)

// ErrPack is returned (wrapped) for a pack that cannot be used.
var ErrPack = errors.New("engine: bad pack")

// Config holds engine options. It is an immutable value: With… methods
// return a copy; Load and New check it.
type Config struct {
	minCoverage float64
}

// NewConfig returns the defaults (minCoverage 0.34).
func NewConfig() Config { return Config{minCoverage: 0.34} }

// WithMinCoverage sets the share of a multi-word query a phrase must cover (0 < v <= 1).
func (c Config) WithMinCoverage(v float64) Config {
	c.minCoverage = v
	return c
}

// Engine searches a fixed set of packs. It is safe for concurrent use.
type Engine struct {
	cfg   Config
	packs []*packfmt.Pack
	ix    *index.Index
}

// Load decodes pack files (JSON, as served under /v1/pack/<version>/) and
// builds an engine. The English core pack is required.
func Load(cfg Config, files ...[]byte) (*Engine, error) {
	packs, err := decode(files)
	if err != nil {
		return nil, err
	}
	return New(cfg, packs...)
}

func decode(files [][]byte) ([]*packfmt.Pack, error) {
	packs := make([]*packfmt.Pack, 0, len(files))
	for i, f := range files {
		p, err := packfmt.Decode(f)
		if err != nil {
			return nil, fmt.Errorf("%w: file %d: %w", ErrPack, i, err)
		}
		packs = append(packs, p)
	}
	return packs, nil
}

// New builds an engine from decoded packs.
func New(cfg Config, packs ...*packfmt.Pack) (*Engine, error) {
	if !(cfg.minCoverage > 0 && cfg.minCoverage <= 1) {
		return nil, fmt.Errorf("engine: minCoverage %v is not in (0, 1]", cfg.minCoverage)
	}
	if len(packs) > 64 {
		return nil, fmt.Errorf("%w: at most 64 packs", ErrPack)
	}
	ix, err := index.Build(packs)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrPack, err)
	}
	return &Engine{cfg: cfg, packs: slices.Clone(packs), ix: ix}, nil
}

// With returns a new engine over this engine's packs plus more pack files
// (for example a locale loaded on first use). The receiver is unchanged.
func (e *Engine) With(files ...[]byte) (*Engine, error) {
	more, err := decode(files)
	if err != nil {
		return nil, err
	}
	return New(e.cfg, append(slices.Clone(e.packs), more...)...)
}

// PackVersion is the version of the loaded packs.
func (e *Engine) PackVersion() string { return e.packs[0].PackVersion }

// Locales lists the loaded locales, English first.
func (e *Engine) Locales() []string { return slices.Clone(e.ix.Locales) }

// Len is the number of emoji (entries).
func (e *Engine) Len() int { return len(e.ix.Entries) }

// EmojiEntry describes one emoji (spec 3 EmojiEntry).
type EmojiEntry struct {
	Emoji        string            `json:"emoji"`
	ID           string            `json:"id"`
	Group        int               `json:"group"`
	Version      float64           `json:"version"`
	HasSkinTones bool              `json:"hasSkinTones"`
	Labels       map[string]string `json:"labels"`
}

// Get returns the entry of an id (hexcode, any skin tone or FE0F form) or of
// an emoji character sequence.
func (e *Engine) Get(id string) (EmojiEntry, bool) {
	i, ok := e.lookup(id)
	if !ok {
		return EmojiEntry{}, false
	}
	ent := &e.ix.Entries[i]
	out := EmojiEntry{Emoji: ent.Emoji, ID: ent.ID, Group: int(ent.Group), Version: float64(ent.Version),
		HasSkinTones: ent.Skins, Labels: map[string]string{}}
	for li, loc := range e.ix.Locales {
		if l := e.ix.Labels[li][i]; l != "" {
			out.Labels[loc] = l
		}
	}
	return out, true
}

func (e *Engine) lookup(id string) (int32, bool) {
	if i, ok := e.ix.Lookup(id); ok {
		return i, true
	}
	hex := id
	if _, ok := emojiOfHex(id); !ok {
		hex = HexcodeOf(id)
	}
	if emoji, ok := emojiOfHex(BaseID(hex)); ok {
		return e.ix.Lookup(emoji)
	}
	return 0, false
}

// GroupLabel names an emojibase group (0..9) in a locale, falling back to
// English, for a UI; "" for an unknown group.
func (e *Engine) GroupLabel(group int, locale string) string {
	for _, loc := range []string{Language(locale), "en"} {
		for li, l := range e.ix.Locales {
			if l == loc && group >= 0 && group < len(e.ix.Groups[li]) && e.ix.Groups[li][group] != "" {
				return e.ix.Groups[li][group]
			}
		}
	}
	return ""
}
