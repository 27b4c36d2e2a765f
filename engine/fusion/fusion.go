// Package fusion merges the alias (dictionary) tier and the semantic
// (meaning) tier into one ranked list, as the "Fusion" section of spec 3
// describes (shared/spec/3-client-library.md): ShouldUseSemantic decides
// whether a query goes to the meaning tier at all, SemanticConfidence says
// how sure that tier is, FuseResults is weighted reciprocal-rank fusion and
// Fuse sets its weights from both tiers' confidence and applies the ordering
// rules (pins, the confident-dictionary block, country flags last).
//
//	items := fusion.Fuse(out.Results, out.Confidence, hits, 24, fusion.DefaultSemanticCalibration)
//
// Item scores stay comparable within their source only (spec 1, Result
// item): an alias item keeps the alias engine's score, a semantic item's
// score is its cosine clamped to 0..1. The fused rank score is used for
// ordering and never shown.
//
// The package is pure Go (standard library plus engine) and builds natively
// and for js/wasm.
package fusion

import (
	"math"

	"github.com/emojisearch/emojisearch/engine/embed"
)

// Source values of an Item (spec 1, Result item).
const (
	SourceAlias    = "alias"
	SourceSemantic = "semantic"
)

// Calibration is the cosine range over which the semantic model's top match
// goes from "rarely right" (Floor) to "usually right" (Ceiling). Each model
// and dimension count needs its own values.
type Calibration struct{ Floor, Ceiling float64 }

// DefaultSemanticCalibration is DEFAULT_SEMANTIC_CALIBRATION of spec 3, for
// the default model.
var DefaultSemanticCalibration = Calibration{Floor: 0.44, Ceiling: 0.58}

// orDefault returns DefaultSemanticCalibration for the zero Calibration and
// for one holding NaN or an infinity, so a forgotten or corrupt value never
// turns every cosine into full confidence.
func (c Calibration) orDefault() Calibration {
	if c == (Calibration{}) || !finite(c.Floor) || !finite(c.Ceiling) {
		return DefaultSemanticCalibration
	}
	return c
}

// Hit is one emoji of the semantic tier with its cosine similarity to the
// query. A list of hits is best first.
type Hit struct {
	ID     string
	Emoji  string
	Cosine float64
}

// Item is a fused result: a Result item of spec 1 plus, for items from the
// alias tier, the AliasResult fields of spec 3 (label, match, field).
type Item struct {
	Emoji  string  `json:"emoji"`
	ID     string  `json:"id"`
	Score  float64 `json:"score"`
	Source string  `json:"source"`
	Label  string  `json:"label,omitempty"`
	Match  string  `json:"match,omitempty"`
	Field  string  `json:"field,omitempty"`
}

// ShouldUseSemantic reports whether a query also goes to the meaning tier
// (spec 3, shouldUseSemantic): when the dictionary is unsure (confidence
// under 0.6), or for a phrase of two or more words without a strong
// dictionary hit (under 0.9), since such phrases are often concepts rather
// than names. An empty query (no tokens) never does; a NaN confidence counts
// as 0.
func ShouldUseSemantic(confidence float64, tokens int) bool {
	if tokens <= 0 {
		return false
	}
	if math.IsNaN(confidence) {
		confidence = 0
	}
	return confidence < 0.6 || (tokens >= 2 && confidence < 0.9)
}

// SemanticConfidence is how sure the semantic tier is, 0 to 1 (spec 3,
// semanticConfidence): the best cosine mapped linearly from cal.Floor (0) to
// cal.Ceiling (1) and clamped. NaN cosines are ignored and no hits give 0.
// The zero Calibration means DefaultSemanticCalibration; with Ceiling <=
// Floor it is a step: 1 from Ceiling on, else 0.
func SemanticConfidence(hits []Hit, cal Calibration) float64 {
	cal = cal.orDefault()
	best := math.Inf(-1)
	for _, h := range hits {
		if !math.IsNaN(h.Cosine) && h.Cosine > best {
			best = h.Cosine
		}
	}
	if math.IsInf(best, -1) {
		return 0
	}
	if cal.Ceiling <= cal.Floor {
		if best >= cal.Ceiling {
			return 1
		}
		return 0
	}
	return embed.Clamp01((best - cal.Floor) / (cal.Ceiling - cal.Floor))
}

func finite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }
