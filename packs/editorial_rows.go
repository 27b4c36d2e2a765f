package packs

import (
	"errors"
	"fmt"
	"slices"

	"github.com/emojisearch/emojisearch/engine/packfmt"
	"github.com/emojisearch/emojisearch/packs/editorial"
)

// edRow holds the editorial phrases of one emoji in one locale: those of
// the concepts it leads (first) and of the concepts it follows in (more).
type edRow struct{ first, more []string }

// editorialPhrases maps the concepts to locale -> hexcode -> phrases. An
// emoji that is not a searchable emoji of the packs is an error.
func editorialPhrases(concepts []editorial.Concept, base []*baseRow) (map[string]map[string]*edRow, error) {
	ids := map[string]string{}
	for _, r := range base {
		ids[stripFE0F(r.Emoji)] = r.ID
	}
	out := map[string]map[string]*edRow{}
	var errs []error
	for _, c := range concepts {
		for i, e := range c.Emoji {
			id, ok := ids[stripFE0F(e)]
			if !ok {
				errs = append(errs, fmt.Errorf("packs: editorial %s (%s): %q is not an emoji of the packs", c.ID, c.Source, e))
				continue
			}
			for loc, phrases := range c.Phrases {
				m := out[loc]
				if m == nil {
					m = map[string]*edRow{}
					out[loc] = m
				}
				r := m[id]
				if r == nil {
					r = &edRow{}
					m[id] = r
				}
				if i == 0 {
					r.first = append(r.first, phrases...)
				} else {
					r.more = append(r.more, phrases...)
				}
			}
		}
	}
	return out, errors.Join(errs...)
}

// splitEditorial splits extension rows into rows without the editorial
// fields (for a locale's index) and rows of the editorial fields only (for
// its editorial part index).
func splitEditorial(rows []packfmt.Row) (plain, ed []packfmt.Row) {
	for _, r := range rows {
		p, e := r, packfmt.Row{ID: r.ID, Group: -1, Subgroup: -1}
		p.Phrases = r.Phrases // an array: copied
		for _, f := range []int{packfmt.FieldEditorial, packfmt.FieldEditorialMore} {
			e.Phrases[f] = slices.Clone(r.Phrases[f])
			p.Phrases[f] = nil
		}
		if !emptyPhrases(&p) {
			plain = append(plain, p)
		}
		if !emptyPhrases(&e) {
			ed = append(ed, e)
		}
	}
	return plain, ed
}
