package meaning

import (
	"context"
	"fmt"
	"time"

	"github.com/emojisearch/emojisearch/engine/vectors"
	"github.com/emojisearch/emojisearch/service/search"
)

// Query is one embedded text over the loaded vector files: the reaction
// and image routes ask it for the nearest emoji and for the similarity of
// chosen emoji, from a single embedding call.
type Query struct {
	t     *Tier
	sets  []*vectors.Index
	rows  []map[string][]int // per set: id -> its rows
	q     []float32
	Embed time.Duration // time spent in the embedding backend
}

// Embed embeds text once for the locale's vector files. Errors are as
// Search's: ErrBackend (wrapped) when the model failed, search.ErrIncomplete
// when a vector file did not load (the Query then uses those that did);
// with no file at all, the model is not called and the Query is nil.
func (t *Tier) Embed(ctx context.Context, text, locale string) (*Query, error) {
	sets, missing := t.sets(ctx, locale)
	if len(sets) == 0 {
		return nil, missing
	}
	begin := time.Now()
	out, err := t.cfg.Embedder.Embed(ctx, []string{text})
	embed := time.Since(begin)
	if err != nil {
		return &Query{Embed: embed}, err
	}
	q := vectors.L2Normalize(out[0])
	if len(q) != sets[0].Dims() {
		return &Query{Embed: embed}, fmt.Errorf("%w: the model answered %d dims, the vector files hold %d", ErrBackend, len(q), sets[0].Dims())
	}
	rows := make([]map[string][]int, len(sets))
	for i, s := range sets {
		rows[i] = t.rowsOf(s)
	}
	return &Query{t: t, sets: sets, rows: rows, q: q, Embed: embed}, missing
}

// rowsOf indexes a file's rows by id once per instance.
func (t *Tier) rowsOf(s *vectors.Index) map[string][]int {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.byID == nil {
		t.byID = map[*vectors.Index]map[string][]int{}
	}
	if m, ok := t.byID[s]; ok {
		return m
	}
	m := map[string][]int{}
	for i, id := range s.IDs() {
		m[id] = append(m[id], i)
	}
	t.byID[s] = m
	return m
}

// Nearest returns the k emoji nearest to the text, best first.
func (q *Query) Nearest(k int) []search.Hit {
	if q == nil || q.t == nil {
		return nil
	}
	matches := vectors.SearchVectorSets(q.sets, q.q, k)
	hits := make([]search.Hit, 0, len(matches))
	for _, m := range matches {
		if e, ok := q.t.cfg.Emoji(m.ID); ok {
			hits = append(hits, search.Hit{ID: m.ID, Emoji: e, Cosine: float64(m.Score)})
		}
	}
	return hits
}

// Similarity returns the cosine between the text and an emoji (its best
// row over the files), and false when no file holds the id.
func (q *Query) Similarity(id string) (float64, bool) {
	if q == nil || q.t == nil {
		return 0, false
	}
	best, found := float32(-2), false
	for i, s := range q.sets {
		for _, r := range q.rows[i][id] {
			if dot := s.Dot(r, q.q); dot > best {
				best, found = dot, true
			}
		}
	}
	return float64(best), found
}
