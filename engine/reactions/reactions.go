// Package reactions ranks the emoji people would react with under a chat
// message (spec 1, POST /v1/suggest-reactions): reactions, not topics.
// It fuses five signals per emoji with a noisy-or, so independent evidence
// adds up without ever passing 1:
//
//   - emoji already in the text (people mirror them);
//   - intent cues written by hand per language, with negators,
//     intensifiers and contrasts (Cues): thanks, congratulations,
//     condolences, laughter, agreement and the moods, each with its row of
//     reactions, plus a broad emotion lexicon per language (lexTable) that
//     turns the mood of lines naming no intent;
//   - the curated reaction vocabulary ranked by the message embedding;
//   - alias hits per clause (the caller searches each of Clauses);
//   - the nearest emoji of the whole catalog to the message embedding.
//
// An emoji outside the vocabulary is topical: it is offered only with two
// kinds of signal or a very close embedding match, so "pizza tonight?"
// does not put 🍕 above 😍 on a single keyword. The default reaction row
// (turned towards the message's mood) is a prior blended with all this:
// its emoji carry a decaying prior score that evidence adds to, so weak
// evidence promotes an emoji among the prior's instead of replacing the
// whole row. The embedding is a tie-breaker where words have spoken.
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

// The weights of each signal (the most a single signal can give).
const (
	wPresent = 0.85 // an emoji the author wrote
	wCue     = 0.8  // first emoji of an intent row
	wVocab   = 0.45 // a vocabulary emoji at the top of the calibration range
	wAlias   = 0.5  // best alias hit of a clause
	wNearest = 0.4  // nearest catalog emoji at the top of the range
	wPrior   = 0.3  // the first emoji of the prior row
	// embeddingWithCues scales the embedding signals of a message that
	// has cues.
	embeddingWithCues = 0.5
	// looseNearest scales a nearest catalog emoji below the ceiling.
	looseNearest = 0.25
	priorDecay   = 0.85 // each next emoji of the prior row
	// vocabTop and nearestTop bound how many embedding matches count, so a
	// flat similarity profile does not spread evidence over everything.
	vocabTop   = 6
	nearestTop = 8
	aliasTop   = 5
)

type kind uint8

const (
	kPresent kind = iota
	kCue
	kVocab
	kAlias
	kNearest
	numKinds
)

type evidence struct {
	emoji    string
	order    int // first time seen, for stable ties
	best     [numKinds]float64
	veryNear bool
}

// Suggest ranks at most limit reactions for a message.
func Suggest(in Input, limit int) []Suggestion {
	if limit <= 0 {
		return nil
	}
	ev := map[string]*evidence{}
	known := map[string]bool{} // in.Known by key, asked once per emoji
	isKnown := func(e, kk string) bool {
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
	note := func(e string, k kind, s float64) *evidence {
		if s <= 0 {
			return nil
		}
		kk := key(e)
		if !isKnown(e, kk) {
			return nil
		}
		x, ok := ev[kk]
		if !ok {
			x = &evidence{emoji: canonical(e), order: len(ev)}
			ev[kk] = x
		}
		x.best[k] = max(x.best[k], min(s, 1))
		return x
	}
	for i, e := range EmojiIn(in.Text) {
		note(e, kPresent, wPresent*pow(0.9, i))
	}
	moodSum := 0.0
	cues := Cues(in.Text, in.Locale)
	// The embedding is a tie-breaker once the words have spoken: a
	// message with cues keeps embeddingWithCues of its embedding signals
	// (the local model mixes antonyms, "happy" and "sad" sit close).
	embed := 1.0
	if len(cues) > 0 {
		embed = embeddingWithCues
	}
	// A cue row decays along its emoji (0.7 each) so one cue keeps its
	// first two or three faces above the prior, and the prior's most used
	// faces come next instead of the row's tail: evidence reorders the
	// prior rather than replacing the whole bar.
	for _, c := range cues {
		moodSum += float64(mood[c.Intent]) * c.Weight
		for i, e := range rows[c.Intent] {
			note(e, kCue, wCue*min(c.Weight*c.Intent.priority(), 1.25)*pow(0.7, i))
		}
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
			note(s.e, kVocab, embed*wVocab*strength(s.cos))
		}
	}
	for _, hits := range in.Alias {
		for r, h := range hits[:min(aliasTop, len(hits))] {
			note(h.Emoji, kAlias, wAlias*h.Score*pow(0.85, r))
		}
	}
	// A nearest catalog emoji below the very-close line is a tie-breaker:
	// with an alias hit it admits a topical emoji, but it should not lift
	// that emoji above the prior's faces on a loose cosine.
	for _, h := range in.Nearest[:min(nearestTop, len(in.Nearest))] {
		s, veryNear := embed*wNearest*strength(h.Score), h.Score >= cal.Ceiling
		if !veryNear {
			s *= looseNearest
		}
		if x := note(h.Emoji, kNearest, s); x != nil && veryNear {
			x.veryNear = true
		}
	}

	// The prior row: the default bar, turned towards the message's mood.
	// It is blended with the evidence rather than replaced by it: each of
	// its emoji carries a prior score that decays along the row, combined
	// by noisy-or with whatever evidence the emoji has, so weak evidence
	// only promotes an emoji among the prior's, and strong evidence (a cue,
	// an emoji the author wrote) leads.
	fill := DefaultRow
	switch {
	case moodSum > 0:
		fill = moodRows[+1]
	case moodSum < 0:
		fill = moodRows[-1]
	}
	priorOf := map[string]float64{}
	for i, e := range fill {
		if k := key(e); isKnown(e, k) {
			if _, dup := priorOf[k]; !dup {
				priorOf[k] = priorScore(i)
			}
		}
	}
	type ranked struct {
		Suggestion
		order int
	}
	var rs []ranked
	for k, x := range ev {
		if !admitted(k, x) {
			continue
		}
		p, sem, other := 1-priorOf[k], 0.0, 0.0
		for kd, s := range x.best {
			p *= 1 - s
			if kind(kd) == kVocab || kind(kd) == kNearest {
				sem += s
			} else {
				other += s
			}
		}
		delete(priorOf, k)
		rs = append(rs, ranked{Suggestion{Emoji: x.emoji, Score: 1 - p, Semantic: sem > other}, x.order})
	}
	for i, e := range fill {
		if pr, ok := priorOf[key(e)]; ok {
			delete(priorOf, key(e))
			rs = append(rs, ranked{Suggestion{Emoji: canonical(e), Score: pr}, len(ev) + i})
		}
	}
	slices.SortFunc(rs, func(a, b ranked) int {
		if a.Score != b.Score {
			return cmp.Compare(b.Score, a.Score)
		}
		return cmp.Compare(a.order, b.order)
	})
	out := make([]Suggestion, 0, min(limit, len(rs)))
	for _, r := range rs[:min(limit, len(rs))] {
		out = append(out, r.Suggestion)
	}
	return out
}

// priorScore is the prior weight of the i-th emoji of the prior row: the
// first is worth about an alias hit of a clear keyword, and it decays so a
// lone weak signal lands between prior emoji rather than above all.
func priorScore(i int) float64 { return wPrior * pow(priorDecay, i) }

// admitted applies the reactions-not-topics rule: a topical emoji needs
// two kinds of signal (the author writing it counts as two) or a very
// close embedding match. A vocabulary emoji needs one signal, and on its
// own an alias or embedding signal must be clear (minSingle): a stray
// keyword or a loose cosine is not worth displacing the default row.
func admitted(k string, x *evidence) bool {
	if x.veryNear || x.best[kPresent] > 0 || x.best[kCue] > 0 {
		return true
	}
	n, strongest := 0, 0.0
	for _, s := range x.best {
		if s > 0 {
			n++
			strongest = max(strongest, s)
		}
	}
	if _, ok := vocab[k]; ok {
		return n >= 2 || strongest >= minSingle
	}
	return n >= 2
}

// minSingle is the strength a lone alias or embedding signal needs.
const minSingle = 0.3

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
