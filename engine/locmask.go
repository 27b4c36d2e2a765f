package engine

import "github.com/emojisearch/emojisearch/engine/internal/index"

// localeMask is what a search in one language reads: the segments (its
// locale's and English) and its locale's main segment (labels; -1 for
// none). The engine works it out once per loaded locale: per search it
// compared the language with every segment's locale, twice.
type localeMask struct {
	lang string
	mask uint64
	loc  int
}

// searchMask is the rule: every segment for no language, else the
// language's and English segments.
func searchMask(ix *index.Index, lang string) localeMask {
	m := localeMask{lang: lang, loc: -1}
	for li, loc := range ix.Locales {
		if lang == "" || loc == lang || loc == "en" {
			m.mask |= 1 << li
		}
		if loc == lang && ix.Parts[li] == "" {
			m.loc = li // the locale's main segment (labels)
		}
	}
	return m
}

// localeMasks works out the masks of no language and of each loaded locale.
func localeMasks(ix *index.Index) []localeMask {
	out := []localeMask{searchMask(ix, "")}
	for li, loc := range ix.Locales {
		if ix.Parts[li] == "" {
			out = append(out, searchMask(ix, loc))
		}
	}
	return out
}

// maskOf returns the mask of a language (Language's form).
func (e *Engine) maskOf(lang string) localeMask {
	for _, m := range e.masks {
		if m.lang == lang {
			return m
		}
	}
	return searchMask(e.ix, lang) // a language not loaded: English only
}
