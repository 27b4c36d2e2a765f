// Package engine is the alias (dictionary) engine of spec 3 in Go: an
// in-memory index built from packs (packs/FORMAT.md) and a synchronous search
// for every keystroke. It is pure Go and builds natively and for js/wasm.
//
//	eng, err := engine.Load(engine.NewConfig(), enIndex, trIndex) // index.en.bin, index.tr.bin
//	// or the JSON packs: engine.Load(engine.NewConfig(), enCore, enExt, trCore, trExt)
//	out := eng.Search(":joy:", engine.DefaultOptions()) // out.Results[0].Emoji == "😂"
//
// Spec: shared/spec/3-client-library.md (createEngine, search, get, helpers).
package engine

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/emojisearch/emojisearch/engine/internal/index"
	"github.com/emojisearch/emojisearch/engine/packfmt"
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

// Engine searches a fixed set of locales. It is safe for concurrent use.
type Engine struct {
	cfg   Config
	segs  []*index.Segment
	packs []*packfmt.Pack // JSON packs, kept so With can rebuild their locales
	ix    *index.Index
	short *shortCache  // answers to the shortest queries (shortcache.go)
	slab  *resultSlab  // the results slices of searches (resultslab.go)
	masks []localeMask // what a search in each loaded language reads (locmask.go)
}

// Load builds an engine from files of one pack version, English first or
// not: binary indexes (index.<locale>.bin, written by the pack build with
// WriteIndex; fast, nothing to normalize) and JSON packs (pack.<locale>.json
// and pack.<locale>.ext.json, as served under /v1/pack/<version>/; indexed
// here). The English locale is required. Binary indexes are used in place:
// their bytes must not change afterwards.
//
//	eng, err := engine.Load(engine.NewConfig(), enBin, trBin) // index.en.bin, index.tr.bin
func Load(cfg Config, files ...[]byte) (*Engine, error) {
	return (&Engine{cfg: cfg}).With(files...)
}

// New builds an engine from decoded JSON packs.
func New(cfg Config, packs ...*packfmt.Pack) (*Engine, error) {
	return (&Engine{cfg: cfg}).add(nil, packs)
}

// WriteIndex writes the binary index of one locale (packs/FORMAT.md, "Binary
// index"): the phrases of the locale's packs among packs, normalized and
// indexed over the entries of the English core pack, which packs must hold.
// The pack build calls it; the output depends only on the packs.
func WriteIndex(w io.Writer, locale string, packs ...*packfmt.Pack) error {
	if err := index.WriteSegment(w, locale, packs); err != nil {
		return fmt.Errorf("%w: %w", ErrPack, err)
	}
	return nil
}

// WritePartIndex writes a part index (index.<locale>.<part>.bin,
// packs/FORMAT.md "Binary index"): the phrases of extension packs of one
// locale, kept out of the locale's own index, over the entries of en (the
// English core pack). An engine holding the locale's index adds it with
// With and searches its phrases as the locale's; alone it is not a locale.
// The output depends only on the packs.
func WritePartIndex(w io.Writer, part string, en *packfmt.Pack, phrases ...*packfmt.Pack) error {
	if err := index.WritePart(w, part, en, phrases); err != nil {
		return fmt.Errorf("%w: %w", ErrPack, err)
	}
	return nil
}

// With returns a new engine over this engine's locales plus more files (for
// example a locale loaded on first use, or a part index of a loaded
// locale), read as Load reads them. Binary locales already loaded are reused
// as they are. The receiver is unchanged.
func (e *Engine) With(files ...[]byte) (*Engine, error) {
	var segs []*index.Segment
	var packs []*packfmt.Pack
	for i, f := range files {
		if index.IsBinary(f) {
			s, err := index.DecodeSegment(f)
			if err != nil {
				return nil, fmt.Errorf("%w: file %d: %w", ErrPack, i, err)
			}
			segs = append(segs, s)
			continue
		}
		p, err := packfmt.Decode(f)
		if err != nil {
			return nil, fmt.Errorf("%w: file %d: %w", ErrPack, i, err)
		}
		packs = append(packs, p)
	}
	return e.add(segs, packs)
}

// add indexes the locales of new JSON packs (again, with the packs kept
// from before) and assembles every segment, English first.
func (e *Engine) add(segs []*index.Segment, packs []*packfmt.Pack) (*Engine, error) {
	if !(e.cfg.minCoverage > 0 && e.cfg.minCoverage <= 1) {
		return nil, fmt.Errorf("engine: minCoverage %v is not in (0, 1]", e.cfg.minCoverage)
	}
	out := &Engine{cfg: e.cfg, packs: append(slices.Clone(e.packs), packs...), short: &shortCache{}, slab: &resultSlab{}}
	rebuild := map[string]bool{}
	var order []string
	for _, p := range packs {
		if !rebuild[p.Locale] {
			rebuild[p.Locale] = true
			order = append(order, p.Locale)
		}
	}
	for _, s := range e.segs {
		if !rebuild[s.Locale()] {
			out.segs = append(out.segs, s)
		}
	}
	out.segs = append(out.segs, segs...)
	for _, loc := range order {
		var b bytes.Buffer
		if err := index.WriteSegment(&b, loc, out.packs); err != nil {
			return nil, fmt.Errorf("%w: %w", ErrPack, err)
		}
		s, err := index.DecodeSegment(b.Bytes())
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrPack, err)
		}
		out.segs = append(out.segs, s)
	}
	slices.SortStableFunc(out.segs, func(a, b *index.Segment) int { return rank(a) - rank(b) })
	if len(out.segs) == 0 || out.segs[0].Locale() != "en" || out.segs[0].Part() != "" {
		return nil, fmt.Errorf("%w: the English core pack (or index.en.bin) is required", ErrPack)
	}
	ix, err := index.New(out.segs...)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrPack, err)
	}
	out.ix = ix
	out.masks = localeMasks(ix)
	return out, nil
}

// rank orders segments: English first, a locale's main segment before its parts.
func rank(s *index.Segment) int {
	r := 0
	if s.Locale() != "en" {
		r = 2
	}
	if s.Part() != "" {
		r++
	}
	return r
}

// PackVersion is the version of the loaded packs.
func (e *Engine) PackVersion() string { return e.ix.PackVersion }

// Locales lists the loaded locales, English first.
func (e *Engine) Locales() []string {
	var out []string
	for i, loc := range e.ix.Locales {
		if e.ix.Parts[i] == "" {
			out = append(out, loc)
		}
	}
	return out
}

// Parts lists the loaded part indexes as locale.part ("en.related").
func (e *Engine) Parts() []string {
	var out []string
	for i, part := range e.ix.Parts {
		if part != "" {
			out = append(out, e.ix.Locales[i]+"."+part)
		}
	}
	return out
}

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
		if l := e.ix.Label(li, i); l != "" {
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
			if g := e.ix.Group(li, group); l == loc && g != "" {
				return g
			}
		}
	}
	return ""
}

// EmojiOf returns the emoji of an id, hexcode or emoji as Get resolves it,
// without building Get's entry (its label map): the reaction route asks it
// for every candidate of every request.
func (e *Engine) EmojiOf(id string) (string, bool) {
	i, ok := e.lookup(id)
	if !ok {
		return "", false
	}
	return e.ix.Entries[i].Emoji, true
}
