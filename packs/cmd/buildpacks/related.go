package main

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/emojisearch/emojisearch/engine/embed"
	"github.com/emojisearch/emojisearch/engine/vectors"
	"github.com/emojisearch/emojisearch/packs/packfmt"
)

// Related words (packs/FORMAT.md "Where each phrase comes from", low): every
// word of the local embedding model (packs/models, built from the pinned
// GloVe-derived vectors and CLDR) that no English phrase contains is given
// to the emoji nearest it, so a query word the dictionary lacks ("sand",
// "frosty") still finds emoji, ranked after every direct match (low field).
const (
	relatedPerWord  = 2   // emoji a word may go to: its nearest ones
	relatedMinCos   = 0.5 // cosine of the word with the emoji's text
	relatedMinWt    = 0.1 // pooling weight of the word: very frequent words carry no meaning
	relatedMinBytes = 3   // shorter words are mostly abbreviations
)

// relatedFrom loads the model file and returns Inputs.Related; a failure
// of the hook is kept in *errp.
func relatedFrom(path string, errp *error) (func(core, ext, others []packfmt.Row) map[string][]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	m, err := embed.Load(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return func(core, ext, others []packfmt.Row) map[string][]string {
		out, err := relatedWords(m, core, ext, others)
		if err != nil {
			*errp = err
		}
		return out
	}, nil
}

// relatedWords gives each emoji the model words (lowercase a-z, at least
// relatedMinBytes long, pooling weight >= relatedMinWt) that appear in no
// phrase of any locale (the English ones are matched directly; another
// locale's words, "kedi", belong to that locale's pack) and whose relatedPerWord nearest emoji it is with a cosine
// of at least relatedMinCos; an emoji's text is its name, keywords and tags
// joined (as in the vector files' whole-text rows). Words come sorted.
func relatedWords(m *embed.Model, core, ext, others []packfmt.Row) (map[string][]string, error) {
	known := map[string]bool{}
	for _, rows := range [][]packfmt.Row{core, ext, others} {
		for _, r := range rows {
			for _, list := range r.Phrases {
				for _, ph := range list {
					for _, t := range embed.Tokenize(strings.ReplaceAll(ph, "_", " ")) {
						known[t] = true
					}
				}
			}
		}
	}
	var ids, texts []string
	for _, r := range core {
		var parts []string
		for _, f := range []int{packfmt.FieldName, packfmt.FieldKeyword, packfmt.FieldAlias} {
			parts = append(parts, r.Phrases[f]...)
		}
		if len(parts) > 0 {
			ids, texts = append(ids, r.ID), append(texts, strings.Join(parts, " | "))
		}
	}
	var buf bytes.Buffer // through the vector file format: the rows a search sees
	if err := vectors.EncodeVectors(&buf, m.Name(), ids, m.EmbedAll(texts)); err != nil {
		return nil, err
	}
	x, err := vectors.DecodeVectors(buf.Bytes())
	if err != nil {
		return nil, err
	}
	out := map[string][]string{}
	for _, w := range m.Words() { // ascending
		if len(w) < relatedMinBytes || known[w] || strings.Trim(w, "abcdefghijklmnopqrstuvwxyz") != "" {
			continue
		}
		if _, wt, _ := m.Lookup(w); wt < relatedMinWt {
			continue
		}
		for _, mt := range vectors.SearchVectors(x, m.Embed(w), relatedPerWord) {
			if mt.Score >= relatedMinCos {
				out[mt.ID] = append(out[mt.ID], w)
			}
		}
	}
	for _, ws := range out {
		slices.Sort(ws)
	}
	return out, nil
}
