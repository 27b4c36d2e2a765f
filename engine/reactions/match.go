package reactions

import (
	"cmp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/emojisearch/emojisearch/engine/internal/textnorm"
)

// cue is one compiled cue: its language and intent, its normalized words
// (or, for unspaced scripts, its normalized text) and whether the last
// word is a prefix.
type cue struct {
	lang     string
	intent   Intent
	words    []string
	prefix   bool
	unspaced string
	lead     rune    // the first rune of unspaced
	scale    float64 // 1 for an intent cue, lexWeight for a lexicon word
}

// lexWeight is how much a word of the emotion lexicon counts beside an
// intent cue: it names a mood, not what the message does, and many of its
// words ("lost", "dark") are only usually emotional.
const lexWeight = 0.85

func (c *cue) lexicon() bool { return c.scale == lexWeight }

// The cues, normalized once and indexed so a message is matched by looking
// its words up rather than by trying every cue of every language: cues by
// their first word, one-word prefix cues by their first two bytes, and the
// unspaced ones in a list (matched as substrings).
var byFirstWord, byPrefix, unspacedCues = func() (map[string][]*cue, map[string][]*cue, []*cue) {
	first, pre := map[string][]*cue{}, map[string][]*cue{}
	var unspaced []*cue
	for r, row := range append(cueTable[:len(cueTable):len(cueTable)], lexTable...) {
		scale := 1.0
		if r >= len(cueTable) {
			scale = lexWeight
		}
		for _, c := range strings.Split(row.cues, "|") {
			prefix := strings.HasSuffix(c, "*")
			n := textnorm.Normalize(strings.TrimSuffix(c, "*"), 0)
			switch {
			case n == "":
			case textnorm.IsUnspaced(n):
				u := strings.ReplaceAll(n, " ", "")
				lead, _ := utf8.DecodeRuneInString(u)
				unspaced = append(unspaced, &cue{lang: row.lang, intent: row.intent, scale: scale, unspaced: u, lead: lead})
			default:
				x := &cue{lang: row.lang, intent: row.intent, scale: scale, words: strings.Fields(n), prefix: prefix}
				if prefix && len(x.words) == 1 {
					pre[prefixKey(n)] = append(pre[prefixKey(n)], x)
				} else {
					first[x.words[0]] = append(first[x.words[0]], x)
				}
			}
		}
	}
	return first, pre, unspaced
}()

// prefixKey is the index key of a prefix cue: its first prefixKeyLen
// bytes. A word is looked up under each of its first 1..prefixKeyLen
// bytes, so a short prefix cue is found too; the longer the key, the fewer
// candidates a word brings (the emotion lexicon holds many prefixes).
func prefixKey(w string) string { return w[:min(prefixKeyLen, len(w))] }

const prefixKeyLen = 3

// contrastSet holds the one-word contrasts; contrastPhrases the others
// (several words, or unspaced).
var contrastSet, contrastPhrases = func() (map[string]bool, []string) {
	set := map[string]bool{}
	var phrases []string
	for _, c := range contrasts {
		n := textnorm.Normalize(c, 0)
		if strings.Contains(n, " ") || textnorm.IsUnspaced(n) {
			phrases = append(phrases, strings.ReplaceAll(n, " ", ""))
		} else {
			set[n] = true
		}
	}
	return set, phrases
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
	// Lexicon marks an intent found only by words of the emotion lexicon,
	// a signal calibrated apart from the intent cues (it is right less often).
	Lexicon bool
	pos     int // where it matched (token, or byte for unspaced text)
}

// foreignWeight is how much a cue of another language than the request's
// (and English) counts: mixed-language chat is common, false friends too.
const foreignWeight = 0.75

// repeatWeight is what each further word of an intent adds (times the
// weaker of the two), up to maxCueWeight.
const (
	repeatWeight = 0.25
	maxCueWeight = 1.5
)

// Cues finds the intents of a message. Negated cues are dropped or, where
// the negation has a meaning of its own ("not happy"), turned into it; an
// intensifier just before a cue ("so happy") strengthens it. Each intent is
// reported once, with its strongest cue, in the order of first appearance.
func Cues(text, locale string) []CueHit {
	marks := markCues(text)
	norm := textnorm.Normalize(text, 0)
	if norm == "" {
		return marks
	}
	raw := strings.Fields(norm)
	toks := make([][4]string, len(raw)) // as typed, runs squeezed to 2, to 1, Arabic proclitics off
	for i, t := range raw {
		toks[i] = [4]string{t, squeeze(t, 2), squeeze(t, 1), stripProclitic(t)}
	}
	joined := strings.ReplaceAll(norm, " ", "")
	// The last contrast: a token index, and a byte offset in joined for
	// the unspaced cues (a spaced contrast counts there too, and the other
	// way round, as its token's place in the joined text).
	cutTok, cutByte := -1, -1
	for i, t := range raw {
		if contrastSet[t] {
			cutTok = i
		}
	}
	for _, c := range contrastPhrases {
		if at := strings.LastIndex(joined, c); at > cutByte {
			cutByte = at
		}
	}
	if cutTok >= 0 {
		cutByte = max(cutByte, len(strings.Join(raw[:cutTok], "")))
	}
	if cutByte >= 0 && cutTok < 0 {
		for i, start := 0, 0; i < len(raw) && start <= cutByte; i++ {
			cutTok, start = i, start+len(raw[i])
		}
	}
	best := map[Intent]int{} // index into hits
	counted := map[[2]int]bool{}
	var hits []CueHit
	add := func(in Intent, w float64, what string, at int, lex bool) {
		if in == 0 {
			return
		}
		if i, ok := best[in]; ok {
			hits[i].Lexicon = hits[i].Lexicon && lex
			// Another word of the same intent adds a little (three angry
			// words outweigh one cheerful one); the same word matched by
			// cues of several languages counts once.
			extra := 0.0
			if !counted[[2]int{int(in), at}] {
				extra = repeatWeight * min(w, hits[i].Weight)
			}
			if w > hits[i].Weight {
				hits[i].Cue = what
			}
			hits[i].Weight = min(max(w, hits[i].Weight)+extra, maxCueWeight)
			hits[i].pos = min(hits[i].pos, at)
			counted[[2]int{int(in), at}] = true
			return
		}
		counted[[2]int{int(in), at}] = true
		best[in] = len(hits)
		hits = append(hits, CueHit{Intent: in, Weight: w, Cue: what, pos: at, Lexicon: lex})
	}
	weight := func(lang string) float64 {
		if lang != locale && lang != "en" {
			return foreignWeight
		}
		return 1
	}
	// An unspaced cue can only be in a message holding its first rune:
	// the runes of unspaced scripts the message has pick the cues worth a
	// substring search (searching all of them, hundreds, cost more than
	// the rest of Cues in js/wasm, which has no SIMD for strings.Index).
	var leads map[rune]bool
	for _, r := range joined {
		if textnorm.Unspaced(r) {
			if leads == nil {
				leads = map[rune]bool{}
			}
			leads[r] = true
		}
	}
	for _, c := range unspacedCues {
		if !leads[c.lead] {
			continue
		}
		at := strings.Index(joined, c.unspaced)
		if at < 0 {
			continue
		}
		w, neg := weight(c.lang)*c.scale, false
		if at < cutByte {
			w *= contrastWeight
		}
		for _, n := range negators["zh"] {
			if strings.HasSuffix(joined[:at], n) {
				neg = true
			}
		}
		if neg {
			add(negated[c.intent], w*0.8, "neg "+c.unspaced, at, c.lexicon())
		} else {
			add(c.intent, w, c.unspaced, at, c.lexicon())
		}
	}
	var cands []*cue
	for i, forms := range toks {
		cands = cands[:0]
		for f, form := range forms {
			if f > 0 && form == forms[f-1] {
				continue
			}
			cands = append(cands, byFirstWord[form]...)
			for k := 1; k <= min(prefixKeyLen, len(form)); k++ {
				cands = append(cands, byPrefix[form[:k]]...)
			}
		}
		for _, c := range cands {
			if i+len(c.words) > len(toks) || !matchAt(toks, i, c) {
				continue
			}
			w, neg := weight(c.lang)*c.scale, false
			if i < cutTok {
				w *= contrastWeight
			}
			from := max(0, i-negationWindow)
			if cutTok < i {
				from = max(from, cutTok+1) // a negation does not reach across a contrast ("sin embargo")
			}
			for j := from; j < i; j++ {
				if negatorSet[toks[j][0]] {
					neg = true
				}
			}
			if i > 0 && intensifierSet[toks[i-1][1]] {
				w *= 1.2
			}
			what := strings.Join(c.words, " ")
			if neg {
				add(negated[c.intent], w*0.8, "not "+what, i, c.lexicon())
			} else {
				add(c.intent, w, what, i, c.lexicon())
			}
		}
	}
	for _, m := range marks {
		add(m.Intent, m.Weight, m.Cue, len(raw), false)
	}
	slices.SortStableFunc(hits, func(a, b CueHit) int {
		if a.Weight != b.Weight {
			return cmp.Compare(b.Weight, a.Weight)
		}
		return cmp.Compare(a.pos, b.pos)
	})
	return hits
}

// matchAt reports whether cue c matches the tokens from i: each word equal
// to the token (as typed or with stretched letters squeezed), the last
// word of a prefix cue a prefix of it.
func matchAt(toks [][4]string, i int, c *cue) bool {
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

// arabicProclitics are the particles Arabic writes joined to the next
// word: the article and "and", "with", "for", "so" before it ("والحزن" is
// "and the sadness"). Longest first.
var arabicProclitics = []string{"وبال", "وال", "بال", "فال", "كال", "لل", "ال", "و", "ب", "ف", "ل"}

// stripProclitic takes one run of Arabic proclitics off a word, so
// "والحزن" is found as "حزن". What remains keeps two letters after the
// article ("الحب") and three after a one-letter particle, so a word that
// merely begins with و or ب ("ولد") stays whole.
func stripProclitic(w string) string {
	for _, p := range arabicProclitics {
		keep := 2
		if utf8.RuneCountInString(p) == 1 {
			keep = 3
		}
		if strings.HasPrefix(w, p) && utf8.RuneCountInString(w[len(p):]) >= keep {
			return w[len(p):]
		}
	}
	return w
}
