package meaning

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/emojisearch/emojisearch/engine/vectors"
	"github.com/emojisearch/emojisearch/service/search"
)

// Files reads vector files by name from the pack version's static files.
type Files interface {
	LoadVectors(ctx context.Context, name string) ([]byte, error)
}

// Config wires a Tier.
type Config struct {
	Model    Model
	Embedder Embedder
	Files    Files
	// Emoji returns the emoji of an id (the built-in English pack knows
	// every id); ids it does not know are dropped.
	Emoji func(id string) (string, bool)
}

// Tier is the meaning tier; it implements search.Meaning. Decoded vector
// files are kept for the life of the instance; a file that failed to load
// is tried again by the next request.
type Tier struct {
	cfg   Config
	mu    sync.Mutex // guards files; never held across I/O
	files map[string]*vectors.Index
	byID  map[*vectors.Index]map[string][]int // rows by id, built on first Query use
}

// New returns the tier.
func New(cfg Config) *Tier {
	return &Tier{cfg: cfg, files: map[string]*vectors.Index{}}
}

// FileName is the vector file of a model and locale (spec 3):
// vectors.<model>.<dims>.bin for the shared English vectors and
// vectors.<model>.<dims>.<locale>.bin for a locale's own.
func FileName(model, locale string) string {
	key, dims := splitName(model)
	if locale == "" || locale == "en" {
		return fmt.Sprintf("vectors.%s.%s.bin", key, dims)
	}
	return fmt.Sprintf("vectors.%s.%s.%s.bin", key, dims, locale)
}

func splitName(model string) (string, string) {
	for i := len(model) - 1; i >= 0; i-- {
		if model[i] == '@' {
			return model[:i], model[i+1:]
		}
	}
	return model, ""
}

// Search embeds text and returns the k nearest emoji over the shared
// English vectors and the locale's own. An embedding failure is an
// ErrBackend error (degraded answer); a vector file that cannot be loaded
// gives the hits of the files that could, with search.ErrIncomplete (the
// answer is not cached). With no file at all, the backend is not called.
func (t *Tier) Search(ctx context.Context, text, locale string, k int) (search.MeaningResult, error) {
	sets, missing := t.sets(ctx, locale)
	if len(sets) == 0 {
		return search.MeaningResult{}, missing
	}
	begin := time.Now()
	rows, err := t.cfg.Embedder.Embed(ctx, []string{text})
	embed := time.Since(begin)
	if err != nil {
		return search.MeaningResult{Embed: embed}, err
	}
	q := rows[0]
	if q = vectors.L2Normalize(q); len(q) != sets[0].Dims() {
		return search.MeaningResult{Embed: embed}, fmt.Errorf("%w: the model answered %d dims, the vector files hold %d", ErrBackend, len(q), sets[0].Dims())
	}
	matches := vectors.SearchVectorSets(sets, q, k)
	hits := make([]search.Hit, 0, len(matches))
	for _, m := range matches {
		if e, ok := t.cfg.Emoji(m.ID); ok {
			hits = append(hits, search.Hit{ID: m.ID, Emoji: e, Cosine: float64(m.Score)})
		}
	}
	return search.MeaningResult{Hits: hits, Embed: embed}, missing
}

// sets returns the loaded files for a locale, English first, and an
// ErrIncomplete error naming those that could not be loaded.
func (t *Tier) sets(ctx context.Context, locale string) ([]*vectors.Index, error) {
	names := []string{FileName(t.cfg.Model.Name, "en")}
	if locale != "en" && locale != "" {
		names = append(names, FileName(t.cfg.Model.Name, locale))
	}
	var out []*vectors.Index
	var errs []error
	for _, n := range names {
		idx, err := t.file(ctx, n)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, idx)
	}
	if len(errs) > 0 {
		return out, fmt.Errorf("%w: %w", search.ErrIncomplete, errors.Join(errs...))
	}
	return out, nil
}

func (t *Tier) file(ctx context.Context, name string) (*vectors.Index, error) {
	t.mu.Lock()
	idx, ok := t.files[name]
	t.mu.Unlock()
	if ok {
		return idx, nil
	}
	b, err := t.cfg.Files.LoadVectors(ctx, name)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	idx, err = vectors.DecodeVectors(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if idx.Model() != t.cfg.Model.Name {
		return nil, fmt.Errorf("%s: holds model %s, want %s", name, idx.Model(), t.cfg.Model.Name)
	}
	t.mu.Lock()
	t.files[name] = idx
	t.mu.Unlock()
	return idx, nil
}
