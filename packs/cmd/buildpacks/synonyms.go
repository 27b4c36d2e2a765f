package main

import (
	"github.com/emojisearch/emojisearch/engine/packfmt"
	"github.com/emojisearch/emojisearch/packs/wordnet"
)

// withSynonyms returns a related-words hook that adds, to what related
// gives (nothing when nil), the WordNet synonyms of each emoji's English
// names and keywords in their commonest sense ("blowfish": fugu; "pager":
// beeper). They go where the related words go: the English extension rows'
// low field, index.en.related.bin.
func withSynonyms(related func(core, ext, others []packfmt.Row) map[string][]string, wn *wordnet.DB) func(core, ext, others []packfmt.Row) map[string][]string {
	return func(core, ext, others []packfmt.Row) map[string][]string {
		out := map[string][]string{}
		if related != nil {
			for id, ws := range related(core, ext, others) {
				out[id] = ws
			}
		}
		for _, r := range core {
			for _, f := range []int{packfmt.FieldName, packfmt.FieldKeyword} {
				for _, p := range r.Phrases[f] {
					out[r.ID] = append(out[r.ID], wn.Synonyms(p)...)
				}
			}
		}
		return out
	}
}
