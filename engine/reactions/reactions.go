// Package reactions ranks the emoji people would react with under a chat
// message (spec 1, POST /v1/suggest-reactions): reactions, not topics.
// It starts from a fixed default row and lets the text move it only where
// the evidence is worth it. Gather collects each emoji's strongest signal
// of each kind (Kind):
//
//   - emoji already in the text (people mirror them);
//   - intent cues written by hand per language, with negators,
//     intensifiers and contrasts (Cues): the speech acts of spec 1
//     (thanks, congratulations, condolences), answered by convention, and
//     the moods, each with its row of reactions, plus a broad emotion
//     lexicon per language (lexTable) for lines naming no intent;
//   - the curated reaction vocabulary ranked by the message embedding;
//   - alias hits per clause (the caller searches each of Clauses);
//   - the nearest emoji of the whole catalog to the message embedding.
//
// A Blend ranks that evidence: each kind's weight is its chance of naming
// a reaction people used (Calibrated, tuned on a training set by
// service/cmd/evalreactions -calibrate), combined by noisy-or with the
// default row's prior, so a signal displaces a face only where it is
// right more often. The message's mood reorders the five faces (which one
// evidence displaces first) but never drops one by itself; a speech act
// drops the faces that clash with it. An emoji outside the vocabulary is
// topical: it is offered only with two kinds of signal or a very close
// embedding match, so "pizza tonight?" does not put 🍕 above 😍 on a
// single keyword.
//
// The package is pure Go: the caller brings the alias hits and the
// embedding similarities, so it is tested with tables and no model.
package reactions

import (
	"cmp"
	"slices"

	"github.com/emojisearch/emojisearch/engine/fusion"
)

// Hit is an emoji with a score: an alias engine score (0..1) or a cosine.
type Hit struct {
	Emoji string
	Score float64
}

// Input is one message and the evidence the caller gathered for it.
type Input struct {
	Text   string // the message, already cut to its maximum length
	Locale string // the request's language (cue tables of other languages count less)
	// Alias holds the alias hits of each of Clauses(Text), best first.
	Alias [][]Hit
	// Similarity is the cosine between the message embedding and an
	// emoji's vector; nil when there is no embedding (degraded, over limit).
	Similarity func(emoji string) (float64, bool)
	// Nearest are the catalog emoji nearest to the message embedding, best
	// first, with their cosines.
	Nearest []Hit
	// Calibration is the embedding model's cosine range from "rarely" to
	// "usually right" (meaning.Model.Calibration); a cosine at or above
	// Ceiling is a very close match.
	Calibration fusion.Calibration
	// Known reports whether an emoji is in the catalog; nil accepts all.
	Known func(emoji string) bool
}

// Suggestion is a ranked reaction. Semantic marks one whose evidence is
// mostly the embedding (spec 1's `source: semantic`).
type Suggestion struct {
	Emoji    string
	Score    float64
	Semantic bool
}

// Kind is a kind of signal; each is calibrated on its own (Blend.Signal).
type Kind uint8

// The kinds of signal.
const (
	Present Kind = iota // an emoji the author wrote
	Act                 // the row of a speech act's cue (thanks, congratulations, condolences...)
	Cue                 // the row of a mood's cue
	Lexicon             // a row of an intent found only by emotion-lexicon words
	Vocab               // a vocabulary emoji ranked by the message embedding
	Alias               // an alias hit of a clause
	Nearest             // a catalog emoji nearest to the message embedding
	NumKinds
)

var kindNames = [NumKinds]string{"present", "act", "cue", "lexicon", "vocab", "alias", "nearest"}

func (k Kind) String() string {
	if k < NumKinds {
		return kindNames[k]
	}
	return "kind?"
}

// Shapes of the raw signal strengths (0..1), before calibration: how a
// strength falls along a row, a clause's hits or the text.
const (
	presentDecay = 0.9  // each next emoji of the text
	rowDecay     = 0.7  // each next emoji of an intent row
	aliasDecay   = 0.85 // each next alias hit of a clause
	maxCue       = 1.25 // a cue weight times its intent's priority that counts fully
	// vocabTop and nearestTop bound how many embedding matches count, so a
	// flat similarity profile does not spread evidence over everything.
	vocabTop   = 6
	nearestTop = 8
	aliasTop   = 5
)

type evidence struct {
	emoji    string
	order    int // first time seen, for stable ties
	best     [NumKinds]float64
	veryNear bool
	// rowRank is the emoji's best place in an intent row that named it
	// (0 first), for Blend.RowTop.
	rowRank int
}

// Signal is one piece of evidence for an emoji with its raw strength
// (0..1): what the calibration (service/cmd/evalreactions -calibrate)
// measures against how often it is right.
type Signal struct {
	Emoji    string
	Kind     Kind
	Strength float64
	VeryNear bool // a nearest match at or above the calibration's ceiling
}

// Evidence is a message's evidence before the blend (Gather), so one
// message can be ranked by several blends (the calibration does).
type Evidence struct {
	ev      map[string]*evidence
	known   func(e, key string) bool
	moodSum float64
	actMood int  // the sign of the speech acts' summed mood (0: none)
	cued    bool // an intent cue or lexicon word fired
}

// Gather collects each emoji's strongest raw signal of each kind.
func Gather(in Input) Evidence {
	g := Evidence{ev: map[string]*evidence{}}
	known := map[string]bool{} // in.Known by key, asked once per emoji
	g.known = func(e, kk string) bool {
		if in.Known == nil {
			return true
		}
		ok, seen := known[kk]
		if !seen {
			ok = in.Known(e)
			known[kk] = ok
		}
		return ok
	}
	note := func(e string, k Kind, s float64) *evidence {
		if s <= 0 {
			return nil
		}
		kk := key(e)
		if !g.known(e, kk) {
			return nil
		}
		x, ok := g.ev[kk]
		if !ok {
			x = &evidence{emoji: canonical(e), order: len(g.ev), rowRank: len(Vocabulary)}
			g.ev[kk] = x
		}
		x.best[k] = max(x.best[k], min(s, 1))
		return x
	}
	for i, e := range EmojiIn(in.Text) {
		note(e, Present, pow(presentDecay, i))
	}
	cues := Cues(in.Text, in.Locale)
	g.cued = len(cues) > 0
	actSum := 0.0
	// A cue row decays along its emoji so one cue keeps its first two or
	// three faces above the prior, and the prior's most used faces come
	// next instead of the row's tail.
	for _, c := range cues {
		g.moodSum += float64(mood[c.Intent]) * c.Weight
		if c.Intent.act() && !c.Lexicon {
			actSum += float64(mood[c.Intent]) * c.Weight
		}
		k := Cue
		switch {
		case c.Lexicon:
			k = Lexicon
		case c.Intent.act():
			k = Act
		}
		for i, e := range rows[c.Intent] {
			if x := note(e, k, min(c.Weight*c.Intent.priority(), maxCue)/maxCue*pow(rowDecay, i)); x != nil {
				x.rowRank = min(x.rowRank, i)
			}
		}
	}
	switch {
	case actSum > 0:
		g.actMood = 1
	case actSum < 0:
		g.actMood = -1
	}
	cal := in.Calibration
	if cal.Ceiling <= cal.Floor {
		cal = fusion.DefaultSemanticCalibration
	}
	strength := func(cos float64) float64 {
		return max(0, min(1, (cos-cal.Floor)/(cal.Ceiling-cal.Floor)))
	}
	if in.Similarity != nil {
		type sim struct {
			e   string
			cos float64
		}
		var sims []sim
		for _, v := range Vocabulary {
			if c, ok := in.Similarity(v.Emoji); ok {
				sims = append(sims, sim{v.Emoji, c})
			}
		}
		slices.SortStableFunc(sims, func(a, b sim) int { return cmp.Compare(b.cos, a.cos) })
		for _, s := range sims[:min(vocabTop, len(sims))] {
			note(s.e, Vocab, strength(s.cos))
		}
	}
	for _, hits := range in.Alias {
		for r, h := range hits[:min(aliasTop, len(hits))] {
			note(h.Emoji, Alias, h.Score*pow(aliasDecay, r))
		}
	}
	for _, h := range in.Nearest[:min(nearestTop, len(in.Nearest))] {
		if x := note(h.Emoji, Nearest, strength(h.Score)); x != nil && h.Score >= cal.Ceiling {
			x.veryNear = true
		}
	}
	return g
}

// Signals lists the evidence, each emoji's strongest raw signal
// of each kind, in the order the emoji were first seen.
func (g Evidence) Signals() []Signal {
	xs := make([]*evidence, 0, len(g.ev))
	for _, x := range g.ev {
		xs = append(xs, x)
	}
	slices.SortFunc(xs, func(a, b *evidence) int { return cmp.Compare(a.order, b.order) })
	var out []Signal
	for _, x := range xs {
		for k, s := range x.best {
			if s > 0 {
				out = append(out, Signal{Emoji: x.emoji, Kind: Kind(k), Strength: s, VeryNear: x.veryNear && Kind(k) == Nearest})
			}
		}
	}
	return out
}

// Suggest ranks at most limit reactions for a message with the calibrated
// blend.
func Suggest(in Input, limit int) []Suggestion {
	if limit <= 0 {
		return nil
	}
	return Calibrated.Rank(Gather(in), limit)
}

// Rank ranks at most limit reactions for a message's evidence.
func (b Blend) Rank(g Evidence, limit int) []Suggestion {
	if limit <= 0 {
		return nil
	}
	// The embedding is a tie-breaker once the words have spoken: a
	// message with cues keeps EmbeddingWithCues of its embedding signals
	// (the local model mixes antonyms, "happy" and "sad" sit close).
	embed := 1.0
	if g.cued {
		embed = b.EmbeddingWithCues
	}

	// The prior row: the default bar, turned towards the message's mood
	// when the mood is clear. It is blended with the evidence rather than
	// replaced by it: each of its emoji carries a prior score that decays
	// along the row, combined by noisy-or with the calibrated evidence, so
	// weak evidence only promotes an emoji among the prior's, and evidence
	// that is right more often than a prior face replaces it.
	fill := DefaultRow
	switch {
	case g.moodSum >= b.Cheerful:
		fill = moodRows[+1]
	case g.moodSum <= -b.Gloomy:
		fill = moodRows[-1]
	case g.cued:
		fill = moodRows[0]
	}
	if g.actMood > 0 {
		fill = gloomLast(fill)
	}
	priorOf := map[string]float64{}
	for i, e := range fill {
		// A loss is no guess: no 😂 under a condolence.
		if g.actMood < 0 && faceMood[e] > 0 {
			continue
		}
		if k := key(e); g.known(e, k) {
			if _, dup := priorOf[k]; !dup {
				priorOf[k] = b.Prior * pow(b.PriorDecay, i)
				if i >= RowFaces {
					priorOf[k] *= b.Fill
				}
			}
		}
	}
	var rs []fusion.Ranked[Suggestion]
	for k, x := range g.ev {
		var qs [NumKinds]float64 // the calibrated chance of each signal
		for kd, s := range x.best {
			qs[kd] = min(1, b.Signal[kd]*s)
			switch {
			case (Kind(kd) == Cue || Kind(kd) == Lexicon) && float64(x.rowRank) >= b.RowTop:
				qs[kd] = 0
			case Kind(kd) == Nearest && !x.veryNear:
				qs[kd] *= embed * b.LooseNearest
			case Kind(kd) == Vocab || Kind(kd) == Nearest:
				qs[kd] *= embed
			}
		}
		if !b.admitted(k, x, qs) {
			continue
		}
		p, sem, other := 1.0, 0.0, 0.0
		for kd, q := range qs {
			p *= 1 - q
			if Kind(kd) == Vocab || Kind(kd) == Nearest {
				sem += q
			} else {
				other += q
			}
		}
		if 1-p < b.Floor {
			p = 1 // evidence this weak is not worth moving the row
		}
		p *= 1 - priorOf[k]
		delete(priorOf, k)
		if p < 1 {
			rs = append(rs, fusion.Ranked[Suggestion]{Item: Suggestion{Emoji: x.emoji, Score: 1 - p, Semantic: sem > other}, Score: 1 - p, Order: x.order})
		}
	}
	for i, e := range fill {
		if pr, ok := priorOf[key(e)]; ok {
			delete(priorOf, key(e))
			rs = append(rs, fusion.Ranked[Suggestion]{Item: Suggestion{Emoji: canonical(e), Score: pr}, Score: pr, Order: len(g.ev) + i})
		}
	}
	return fusion.Best(rs, limit)
}

// gloomLast moves the row's gloomy faces to the end of its first
// RowFaces, so the reactions of thanks or congratulations displace them
// first. They are not dropped as a condolence drops 😂: a 😢 under a
// "thank you" misses, it does not hurt, and people thank on sad and angry
// lines too ("thanks for nothing").
func gloomLast(fill []string) []string {
	n := min(RowFaces, len(fill))
	out := make([]string, 0, len(fill))
	for _, e := range fill[:n] {
		if faceMood[e] >= 0 {
			out = append(out, e)
		}
	}
	for _, e := range fill[:n] {
		if faceMood[e] < 0 {
			out = append(out, e)
		}
	}
	return append(out, fill[n:]...)
}

// admitted applies the reactions-not-topics rule: a topical emoji needs
// two kinds of signal (the author writing it counts as two) or a very
// close embedding match. A vocabulary emoji needs one signal, and on its
// own an alias or embedding signal must be clear (minSingle): a stray
// keyword or a loose cosine is not worth displacing the default row.
func (b Blend) admitted(k string, x *evidence, qs [NumKinds]float64) bool {
	if x.veryNear || x.best[Present] > 0 || x.best[Act] > 0 || x.best[Cue] > 0 || x.best[Lexicon] > 0 {
		return true
	}
	n, strongest := 0, 0.0
	for _, q := range qs {
		if q > 0 {
			n++
			strongest = max(strongest, q)
		}
	}
	if _, ok := vocab[k]; ok {
		return n >= 2 || strongest >= b.MinSingle
	}
	return n >= 2
}

// canonical spells an emoji as the vocabulary does when it is there
// (with its U+FE0F), else as given without skin tones.
func canonical(e string) string {
	if i, ok := vocab[key(e)]; ok {
		return Vocabulary[i].Emoji
	}
	return e
}

func pow(b float64, n int) float64 {
	p := 1.0
	for range n {
		p *= b
	}
	return p
}
