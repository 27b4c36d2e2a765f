package reactions

import (
	"cmp"
	"slices"
	"strings"

	"github.com/emojisearch/emojisearch/engine/internal/textnorm"
)

// cue is one compiled cue: its normalized words (or, for unspaced scripts,
// its normalized text) and whether the last word is a prefix.
type cue struct {
	intent   Intent
	words    []string
	prefix   bool
	unspaced string
}

// compiled holds every language's cues and negators, normalized once.
var compiled = func() map[string][]cue {
	out := map[string][]cue{}
	for _, row := range cueTable {
		lang, in := row.lang, row.intent
		for _, c := range strings.Split(row.cues, "|") {
			prefix := strings.HasSuffix(c, "*")
			n := textnorm.Normalize(strings.TrimSuffix(c, "*"), 0)
			if n == "" {
				continue
			}
			if textnorm.IsUnspaced(n) {
				out[lang] = append(out[lang], cue{intent: in, unspaced: strings.ReplaceAll(n, " ", "")})
				continue
			}
			out[lang] = append(out[lang], cue{intent: in, words: strings.Fields(n), prefix: prefix})
		}
	}
	return out
}()

var negatorSet, intensifierSet = func() (map[string]bool, map[string]bool) {
	neg, inten := map[string]bool{}, map[string]bool{}
	for _, ws := range negators {
		for _, w := range ws {
			neg[textnorm.Normalize(w, 0)] = true
		}
	}
	for _, w := range intensifiers {
		inten[textnorm.Normalize(w, 0)] = true
	}
	return neg, inten
}()

// CueHit is an intent a message expresses, with the cue's strength.
type CueHit struct {
	Intent Intent
	Weight float64
	Cue    string // the words that matched, for tests and debugging
	pos    int    // where it matched (token, or byte for unspaced text)
}

// foreignWeight is how much a cue of another language than the request's
// (and English) counts: mixed-language chat is common, false friends too.
const foreignWeight = 0.75

// Cues finds the intents of a message. Negated cues are dropped or, where
// the negation has a meaning of its own ("not happy"), turned into it; an
// intensifier just before a cue ("so happy") strengthens it. Each intent is
// reported once, with its strongest cue, in the order of first appearance.
func Cues(text, locale string) []CueHit {
	norm := textnorm.Normalize(text, 0)
	if norm == "" {
		return nil
	}
	raw := strings.Fields(norm)
	toks := make([][3]string, len(raw)) // as typed, runs squeezed to 2, to 1
	for i, t := range raw {
		toks[i] = [3]string{t, squeeze(t, 2), squeeze(t, 1)}
	}
	joined := strings.ReplaceAll(norm, " ", "")
	best := map[Intent]int{} // index into hits
	var hits []CueHit
	add := func(in Intent, w float64, what string, at int) {
		if in == 0 {
			return
		}
		if i, ok := best[in]; ok {
			if w > hits[i].Weight {
				hits[i].Weight, hits[i].Cue = w, what
			}
			hits[i].pos = min(hits[i].pos, at)
			return
		}
		best[in] = len(hits)
		hits = append(hits, CueHit{Intent: in, Weight: w, Cue: what, pos: at})
	}
	for _, lang := range languages {
		cues := compiled[lang]
		weight := 1.0
		if lang != locale && lang != "en" {
			weight = foreignWeight
		}
		for _, c := range cues {
			if c.unspaced != "" {
				at := strings.Index(joined, c.unspaced)
				if at < 0 {
					continue
				}
				neg := false
				for _, n := range negators["zh"] {
					if strings.HasSuffix(joined[:at], n) {
						neg = true
					}
				}
				if neg {
					add(negated[c.intent], weight*0.8, "neg "+c.unspaced, at)
				} else {
					add(c.intent, weight, c.unspaced, at)
				}
				continue
			}
			for i := 0; i+len(c.words) <= len(toks); i++ {
				if !matchAt(toks, i, c) {
					continue
				}
				w := weight
				neg := false
				for j := max(0, i-negationWindow); j < i; j++ {
					if negatorSet[toks[j][0]] {
						neg = true
					}
				}
				if i > 0 && intensifierSet[toks[i-1][1]] {
					w *= 1.2
				}
				what := strings.Join(c.words, " ")
				if neg {
					add(negated[c.intent], w*0.8, "not "+what, i)
				} else {
					add(c.intent, w, what, i)
				}
				break
			}
		}
	}
	slices.SortStableFunc(hits, func(a, b CueHit) int {
		if a.Weight != b.Weight {
			return cmp.Compare(b.Weight, a.Weight)
		}
		return cmp.Compare(a.pos, b.pos)
	})
	return hits
}

// languages are the cue tables' languages in a fixed order, so equal
// cues of two languages always resolve alike.
var languages = func() []string {
	var ls []string
	for _, row := range cueTable {
		if !slices.Contains(ls, row.lang) {
			ls = append(ls, row.lang)
		}
	}
	slices.Sort(ls)
	return ls
}()

// matchAt reports whether cue c matches the tokens from i: each word equal
// to the token (as typed or with stretched letters squeezed), the last
// word of a prefix cue a prefix of it.
func matchAt(toks [][3]string, i int, c cue) bool {
	for k, w := range c.words {
		t := toks[i+k]
		last := k == len(c.words)-1
		ok := false
		for _, form := range t {
			if form == w || (last && c.prefix && strings.HasPrefix(form, w)) {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}
