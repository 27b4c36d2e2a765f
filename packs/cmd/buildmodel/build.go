package main

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"unicode/utf8"

	"github.com/emojisearch/emojisearch/engine/embed"
)

// Tuning of the build; FORMAT.md "Local embedding model" explains each.
const (
	sifA          = 1e-3 // SIF smoothing: weight = a/(a+p(w))
	stopFactor    = 0.3  // extra factor of English stop words
	minWeight     = 0.02 // no word weighs less
	nameFactor    = 2    // a word of the emoji's name counts twice in its text
	hanCharFactor = 0.5  // single Han characters taken out of longer keywords
	enBridge      = 1.0  // share of the emoji-derived vector in an English emoji word
)

// glove is the English word-vector input: words by frequency rank (0 is the
// most frequent) and their vectors.
type glove struct {
	dims  int
	words []string
	vecs  map[string][]float32
}

// emojiText is one emoji's searchable text per locale.
type emojiText struct {
	id    string
	names map[string][]string // locale -> names (CLDR tts, emojibase label)
	words map[string][]string // locale -> keywords and tags
}

// options of one build.
type options struct {
	key     string
	general int // how many of the most frequent GloVe words join the vocabulary
}

// zipfNorm is H(N) for the 341k-word GloVe vocabulary: p(rank r) = 1/(r·H).
const zipfNorm = 13.3

func sifWeight(rank int) float32 {
	p := 1 / (float64(rank+1) * zipfNorm)
	return float32(sifA / (sifA + p))
}

func idfWeight(df, n int) float32 {
	w := math.Log(1+float64(n)/float64(df)) / math.Log(1+float64(n))
	return float32(min(1, max(0.05, w)))
}

// enStop are English function words; SIF already weighs them little, this
// pushes them further down so "so tired after work" is about being tired.
var enStop = set("a an the and or but if so of to in on at by for with from up out as is am are was were be been being it its this that these those i me my we our you your he him his she her they them their what which who whom do does did have has had not no just very can will would should could than then there here about after before into over again")

func set(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range embed.Tokenize(words) {
		m[w] = true
	}
	return m
}

// vocab is a word being built.
type vocab struct {
	vec    []float32
	weight float32
}

// build computes the vocabulary and the common component of the model.
func build(g *glove, texts []emojiText, locales []string, opt options) ([]embed.Word, []float32, error) {
	if len(texts) == 0 {
		return nil, nil, fmt.Errorf("buildmodel: no emoji")
	}
	rank := make(map[string]int, len(g.words))
	byNorm := map[string]string{} // normalized word -> GloVe word of best rank
	for r, w := range g.words {
		if _, ok := g.vecs[w]; !ok {
			continue
		}
		rank[w] = r
		toks := embed.Tokenize(w)
		if len(toks) != 1 {
			continue
		}
		if _, ok := byNorm[toks[0]]; !ok {
			byNorm[toks[0]] = w
		}
	}
	gloveOf := func(tok string) ([]float32, float32, bool) {
		w, ok := byNorm[tok]
		if !ok {
			return nil, 0, false
		}
		wt := sifWeight(rank[w])
		if enStop[tok] {
			wt *= stopFactor
		}
		return unit(g.vecs[w]), max(wt, minWeight), true
	}

	// English words: those of the emoji texts, then the general cut.
	words := map[string]*vocab{}
	enWords := map[string]bool{}
	for _, t := range texts {
		for _, phrase := range append(slices.Clone(t.names["en"]), t.words["en"]...) {
			for _, tok := range embed.Tokenize(phrase) {
				enWords[tok] = true
			}
		}
	}
	for tok := range enWords {
		if v, wt, ok := gloveOf(tok); ok {
			words[tok] = &vocab{v, wt}
		}
	}
	for r := 0; r < len(g.words) && r < opt.general; r++ {
		toks := embed.Tokenize(g.words[r])
		if len(toks) != 1 || byNorm[toks[0]] != g.words[r] || words[toks[0]] != nil {
			continue
		}
		if v, wt, ok := gloveOf(toks[0]); ok {
			words[toks[0]] = &vocab{v, wt}
		}
	}

	// English vector of every emoji: weighted mean over its English text.
	emojiVec := make([][]float32, len(texts))
	for i, t := range texts {
		acc := make([]float32, g.dims)
		add := func(phrases []string, f float32) {
			for _, p := range phrases {
				for _, tok := range embed.Tokenize(p) {
					if v, wt, ok := gloveOf(tok); ok {
						axpy(acc, v, wt*f)
					}
				}
			}
		}
		add(t.names["en"], nameFactor)
		add(t.words["en"], 1)
		emojiVec[i] = unit(acc)
	}

	// Bridge: a word of any locale is the weighted mean of the English
	// vectors of the emoji whose text in that locale contains it.
	type bridge struct {
		acc   []float32
		emoji map[int]bool
		char  bool // only ever a single Han character cut from a keyword
	}
	bridges := map[string]*bridge{}
	var order []string
	for _, loc := range locales {
		for i, t := range texts {
			seen := map[string]bool{}
			visit := func(phrases []string, f float32) {
				for _, p := range phrases {
					for _, tok := range embed.Tokenize(p) {
						pieces := []string{tok}
						if embed.IsUnspaced(tok) && utf8.RuneCountInString(tok) > 1 {
							for _, r := range tok {
								pieces = append(pieces, string(r))
							}
						}
						for k, piece := range pieces {
							if seen[piece] {
								continue
							}
							seen[piece] = true
							b := bridges[piece]
							if b == nil {
								b = &bridge{acc: make([]float32, g.dims), emoji: map[int]bool{}, char: true}
								bridges[piece] = b
								order = append(order, piece)
							}
							b.char = b.char && k > 0
							axpy(b.acc, emojiVec[i], f)
							b.emoji[i] = true
						}
					}
				}
			}
			visit(t.names[loc], nameFactor)
			visit(t.words[loc], 1)
		}
	}
	for _, tok := range order {
		b := bridges[tok]
		bv, bw := unit(b.acc), idfWeight(len(b.emoji), len(texts))
		if w := words[tok]; w != nil && enWords[tok] {
			// An English emoji word keeps its GloVe weight; its vector leans
			// towards the emoji it names ("party" the celebration, not
			// the politics; "happy" away from the sad faces).
			w.vec = unit(add(w.vec, scale(bv, enBridge)))
			continue
		}
		if b.char {
			bw *= hanCharFactor
		}
		if w := words[tok]; w != nil {
			// Also a frequent English word ("chat", "de"): both senses.
			w.vec = unit(add(w.vec, bv))
			w.weight = min(w.weight, bw)
			continue
		}
		words[tok] = &vocab{bv, max(bw, minWeight)}
	}

	out := make([]embed.Word, 0, len(words))
	for w, v := range words {
		if w == "" || norm(v.vec) == 0 {
			continue
		}
		out = append(out, embed.Word{Text: w, Weight: v.weight, Vec: v.vec})
	}
	slices.SortFunc(out, func(a, b embed.Word) int { return cmpString(a.Text, b.Text) })

	// Common component: first principal direction of the emoji texts as the
	// runtime pools them (without it).
	var tmp bytes.Buffer
	if err := embed.Encode(&tmp, opt.key, g.dims, nil, out); err != nil {
		return nil, nil, err
	}
	m, err := embed.Load(tmp.Bytes())
	if err != nil {
		return nil, nil, err
	}
	var sample [][]float32
	for _, loc := range locales {
		for _, t := range texts {
			if v := m.Embed(joinText(t, loc)); norm(v) > 0 {
				sample = append(sample, v)
			}
		}
	}
	return out, principal(sample, g.dims), nil
}

// joinText is an emoji's text in one locale: names, then keywords.
func joinText(t emojiText, loc string) string {
	var b []byte
	for _, p := range append(slices.Clone(t.names[loc]), t.words[loc]...) {
		b = append(b, p...)
		b = append(b, " | "...)
	}
	return string(b)
}

// principal returns the unit first principal direction (uncentred, as SIF
// does) of vs by power iteration from a fixed start: deterministic.
func principal(vs [][]float32, dims int) []float32 {
	cov := make([]float64, dims*dims)
	for _, v := range vs {
		for i := range dims {
			for j := range dims {
				cov[i*dims+j] += float64(v[i]) * float64(v[j])
			}
		}
	}
	x := make([]float64, dims)
	for i := range x {
		x[i] = 1
	}
	for range 200 {
		y := make([]float64, dims)
		var s float64
		for i := range dims {
			for j := range dims {
				y[i] += cov[i*dims+j] * x[j]
			}
			s += y[i] * y[i]
		}
		if s == 0 {
			return make([]float32, dims)
		}
		s = math.Sqrt(s)
		for i := range y {
			y[i] /= s
		}
		x = y
	}
	out := make([]float32, dims)
	for i := range x {
		out[i] = float32(x[i])
	}
	return out
}

func axpy(acc, v []float32, f float32) {
	for i := range acc {
		acc[i] += v[i] * f
	}
}

func scale(v []float32, f float32) []float32 {
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = x * f
	}
	return out
}

func add(a, b []float32) []float32 {
	out := make([]float32, len(a))
	for i := range a {
		out[i] = a[i] + b[i]
	}
	return out
}

func norm(v []float32) float64 {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	return math.Sqrt(s)
}

func unit(v []float32) []float32 {
	n := norm(v)
	out := make([]float32, len(v))
	if n == 0 {
		return out
	}
	for i, x := range v {
		out[i] = float32(float64(x) / n)
	}
	return out
}

func cmpString(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
