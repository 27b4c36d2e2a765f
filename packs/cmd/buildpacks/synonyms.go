package main

import (
	"github.com/emojisearch/emojisearch/engine"
	"github.com/emojisearch/emojisearch/engine/packfmt"
	"github.com/emojisearch/emojisearch/packs/wordnet"
)

// withSynonyms returns a related-words hook that adds, to what related
// gives (nothing when nil), the WordNet synonyms of each emoji's English
// names and keywords in their commonest sense ("blowfish": fugu; "pager":
// beeper). They go where the related words go: the English extension rows'
// low field, index.en.related.bin. A synonym the engine would read as a
// phrase the emoji already has ("hallowe'en", "dr.") is left out: the
// index keeps one phrase per text and entry.
func withSynonyms(related func(core, ext, others []packfmt.Row) map[string][]string, wn *wordnet.DB) func(core, ext, others []packfmt.Row) map[string][]string {
	return func(core, ext, others []packfmt.Row) map[string][]string {
		out := map[string][]string{}
		if related != nil {
			for id, ws := range related(core, ext, others) {
				out[id] = ws
			}
		}
		has := map[string]bool{} // id + "\x00" + normalised phrase
		add := func(id, ph string) bool {
			k := id + "\x00" + engine.Normalize(ph, 0)
			if has[k] {
				return false
			}
			has[k] = true
			return true
		}
		for _, rows := range [][]packfmt.Row{core, ext} {
			for _, r := range rows {
				for _, list := range r.Phrases {
					for _, ph := range list {
						add(r.ID, ph)
					}
				}
			}
		}
		for id, ws := range out {
			for _, w := range ws {
				add(id, w)
			}
		}
		for _, r := range core {
			for _, f := range []int{packfmt.FieldName, packfmt.FieldKeyword} {
				for _, p := range r.Phrases[f] {
					for _, s := range wn.Synonyms(p) {
						if add(r.ID, s) {
							out[r.ID] = append(out[r.ID], s)
						}
					}
				}
			}
		}
		return out
	}
}
