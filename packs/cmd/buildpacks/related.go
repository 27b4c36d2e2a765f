package main

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/emojisearch/emojisearch/engine"
	"github.com/emojisearch/emojisearch/engine/embed"
	"github.com/emojisearch/emojisearch/engine/packfmt"
	"github.com/emojisearch/emojisearch/engine/vectors"
)

// Related words (packs/FORMAT.md "Where each phrase comes from", low): every
// word of the local embedding model (packs/models, built from the pinned
// GloVe-derived vectors and CLDR) is given to the emoji nearest it, so a
// query word the dictionary lacks ("sand", "thawing") still finds emoji, and
// a word it has for some emoji ("pink") also finds the emoji nearest in
// meaning that lack it; ranked after every direct match (low field).
const (
	relatedPerWord  = 2   // emoji a word in no phrase may go to: its nearest ones
	relatedMinCos   = 0.4 // cosine of the word with the emoji's text
	relatedTypoCos  = 0.5 // below it, only words the engine's typo tolerance cannot mend
	knownPerWord    = 6   // emoji an English phrase word may go to: its nearest ones that lack it
	knownMinCos     = 0.4
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

// relatedWords gives each emoji model words (lowercase a-z, at least
// relatedMinBytes long, pooling weight >= relatedMinWt) by cosine of the
// word with the emoji's text (its name, keywords and tags joined, as in the
// vector files' whole-text rows):
//
//   - a word in no phrase of any locale goes to its relatedPerWord nearest
//     emoji with a cosine of at least relatedMinCos; below relatedTypoCos
//     only when no English phrase word is within the engine's typo distance
//     of it (then the typo match, often the word meant, answers instead);
//   - a word of the English phrases goes to its knownPerWord nearest emoji
//     with a cosine of at least knownMinCos whose English phrases lack it
//     (the emoji that have it match it directly);
//   - a word only of another locale's phrases ("kedi") stays that locale's.
//
// Words come sorted.
func relatedWords(m *embed.Model, core, ext, others []packfmt.Row) (map[string][]string, error) {
	known := map[string]bool{}   // words of any locale's phrases
	english := map[string]bool{} // words of the English phrases
	has := map[string]map[string]bool{}
	for k, rows := range [][]packfmt.Row{core, ext, others} {
		for _, r := range rows {
			for _, list := range r.Phrases {
				for _, ph := range list {
					for _, t := range embed.Tokenize(strings.ReplaceAll(ph, "_", " ")) {
						known[t] = true
						if k == 2 {
							continue
						}
						english[t] = true
						if has[r.ID] == nil {
							has[r.ID] = map[string]bool{}
						}
						has[r.ID][t] = true
					}
				}
			}
		}
	}
	englishWords := make([]string, 0, len(english))
	for w := range english {
		englishWords = append(englishWords, w)
	}
	slices.Sort(englishWords)
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
		if len(w) < relatedMinBytes || strings.Trim(w, "abcdefghijklmnopqrstuvwxyz") != "" {
			continue
		}
		if _, wt, _ := m.Lookup(w); wt < relatedMinWt {
			continue
		}
		switch {
		case english[w]:
			// The nearest emoji that lack the word (those that have it
			// are among the candidates, hence the wider search).
			n := 0
			for _, mt := range vectors.SearchVectors(x, m.Embed(w), knownPerWord+8) {
				if n == knownPerWord || mt.Score < knownMinCos {
					break
				}
				if !has[mt.ID][w] {
					n++
					out[mt.ID] = append(out[mt.ID], w)
				}
			}
		case !known[w]:
			for _, mt := range vectors.SearchVectors(x, m.Embed(w), relatedPerWord) {
				if mt.Score >= relatedMinCos && (mt.Score >= relatedTypoCos || !typoNear(w, englishWords)) {
					out[mt.ID] = append(out[mt.ID], w)
				}
			}
		}
	}
	for _, ws := range out {
		slices.Sort(ws)
	}
	return out, nil
}

// typoNear reports whether the engine's typo tolerance would mend w into
// one of words (an English query word it finds nothing for): w has at
// least 4 characters, the word starts with the same character and is
// within one edit (two from 8 characters).
func typoNear(w string, words []string) bool {
	n := utf8.RuneCountInString(w)
	if n < 4 {
		return false
	}
	maxD := 1
	if n >= 8 {
		maxD = 2
	}
	for _, t := range words {
		if t[0] != w[0] || len(t)-len(w) > maxD || len(w)-len(t) > maxD {
			continue
		}
		if engine.BoundedEditDistance(w, t, maxD) <= maxD {
			return true
		}
	}
	return false
}
