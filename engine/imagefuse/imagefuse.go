// Package imagefuse ranks the emoji of an image classification (spec 1,
// POST /v1/classify-image) from three kinds of evidence: the emoji the
// vision model proposed, an alias search per keyword, and the emoji
// nearest to the caption's embedding. Evidence adds up with a noisy-or
// (independent signals raise the score without passing 1); an emoji whose
// fused evidence stays under MinEvidence is dropped; gender and direction
// variants of one emoji (🏃 🏃‍♀️ 🏃‍♂️ 🏃‍➡️) count as one, shown once,
// in the spelling that had the strongest single signal.
//
// The package is pure Go; the caller brings the searches' results.
package imagefuse

import (
	"strings"

	"github.com/emojisearch/emojisearch/engine/fusion"
)

// Hit is an emoji with a score: an alias engine score or a cosine.
type Hit struct {
	Emoji string
	Score float64
}

// Input is the evidence for one image.
type Input struct {
	// Proposed are the model's emoji, in its order.
	Proposed []string
	// Keywords hold each keyword's alias hits, best first.
	Keywords [][]Hit
	// Nearest are the emoji nearest to the caption embedding (cosines),
	// best first; nil without an embedding (degraded).
	Nearest []Hit
	// Calibration maps cosines to confidence (the embedding model's).
	Calibration fusion.Calibration
	// Known reports catalog emoji: proposals outside it are dropped. Nil
	// accepts all.
	Known func(emoji string) bool
}

// Result is a fused emoji. Semantic marks one whose evidence is mostly the
// caption embedding.
type Result struct {
	Emoji    string
	Score    float64
	Semantic bool
}

// MinEvidence is the fused score under which an emoji is dropped: one
// middling keyword hit alone is too little evidence.
const MinEvidence = 0.25

// Signal weights: the most a single signal can give.
const (
	wProposed  = 0.7
	wKeyword   = 0.5
	wNearest   = 0.5
	keywordTop = 3
	nearestTop = 8
)

type evidence struct {
	emoji     string
	strongest float64
	order     int
	proposed  float64
	keyword   float64
	nearest   float64
}

// Fuse ranks at most limit emoji.
func Fuse(in Input, limit int) []Result {
	ev := map[string]*evidence{}
	note := func(e string, s float64, field func(*evidence) *float64) {
		if s <= 0 || e == "" || (in.Known != nil && !in.Known(e)) {
			return
		}
		k := VariantKey(e)
		x, ok := ev[k]
		if !ok {
			x = &evidence{order: len(ev)}
			ev[k] = x
		}
		f := field(x)
		*f = 1 - (1-*f)*(1-min(s, 1)) // several variants of one emoji add up
		if s > x.strongest {
			x.strongest, x.emoji = s, e
		}
	}
	for i, e := range in.Proposed {
		note(e, wProposed*pow(0.93, i), func(x *evidence) *float64 { return &x.proposed })
	}
	for _, hits := range in.Keywords {
		for r, h := range hits[:min(keywordTop, len(hits))] {
			note(h.Emoji, wKeyword*h.Score*pow(0.8, r), func(x *evidence) *float64 { return &x.keyword })
		}
	}
	cal := in.Calibration
	if cal.Ceiling <= cal.Floor {
		cal = fusion.DefaultSemanticCalibration
	}
	for _, h := range in.Nearest[:min(nearestTop, len(in.Nearest))] {
		s := max(0, min(1, (h.Score-cal.Floor)/(cal.Ceiling-cal.Floor)))
		note(h.Emoji, wNearest*s, func(x *evidence) *float64 { return &x.nearest })
	}
	var rs []fusion.Ranked[Result]
	for _, x := range ev {
		score := 1 - (1-x.proposed)*(1-x.keyword)*(1-x.nearest)
		if score < MinEvidence {
			continue
		}
		rs = append(rs, fusion.Ranked[Result]{Item: Result{Emoji: x.emoji, Score: score, Semantic: x.nearest > x.proposed+x.keyword}, Score: score, Order: x.order})
	}
	return fusion.Best(rs, limit)
}

// VariantKey names the family of an emoji: without U+FE0F and skin tones,
// without a gender sign (♀ ♂) or a direction arrow (➡) joined by ZWJ, and
// with man and woman at the head of a ZWJ sequence read as person, so
// 🏃‍♀️, 🏃‍♂️ and 🏃‍➡️ are all 🏃, and 👩‍🍳 is 🧑‍🍳.
func VariantKey(e string) string {
	rs := make([]rune, 0, 8)
	for _, r := range e {
		if r == 0xFE0F || (r >= 0x1F3FB && r <= 0x1F3FF) {
			continue
		}
		rs = append(rs, r)
	}
	out := rs[:0:0]
	for i := 0; i < len(rs); i++ {
		if rs[i] == 0x200D && i+1 < len(rs) && (rs[i+1] == 0x2640 || rs[i+1] == 0x2642 || rs[i+1] == 0x27A1) {
			i++
			continue
		}
		out = append(out, rs[i])
	}
	if len(out) > 2 && (out[0] == 0x1F468 || out[0] == 0x1F469) && out[1] == 0x200D {
		out[0] = 0x1F9D1
	}
	var b strings.Builder
	for _, r := range out {
		b.WriteRune(r)
	}
	return b.String()
}

func pow(b float64, n int) float64 {
	p := 1.0
	for range n {
		p *= b
	}
	return p
}
