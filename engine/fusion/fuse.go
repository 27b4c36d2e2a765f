package fusion

import (
	"math"
	"strconv"
	"strings"

	"github.com/emojisearch/emojisearch/engine"
	"github.com/emojisearch/emojisearch/engine/embed"
)

// Thresholds of spec 3's fuse.
const (
	pinScore        = 0.9  // results scoring this or more stay on top
	confidentAlias  = 0.6  // dictionary confidence that enables its top block
	topBlockSpread  = 0.1  // the block is results within this of the top score
	blockEpsilon    = 1e-9 // so 0.7 counts as within 0.1 of 0.8 despite rounding
	minTierWeight   = 0.4  // a tier's weight at no confidence
	semanticGain    = 0.6  // semantic weight added at full confidence
	defaultFuseSize = engine.DefaultLimit
)

// Fuse merges the dictionary results (with the dictionary confidence,
// engine.Output.Confidence) and the semantic hits, best first, cut to limit
// (spec 3, fuse). A limit of 0 or less means engine.DefaultLimit; the zero
// Calibration means DefaultSemanticCalibration.
//
// Weights follow how sure each tier is, so a weak semantic list (slang,
// romanized text, a language the model handles poorly) no longer outranks a
// dictionary hit: the dictionary weighs 0.4 + its confidence, the semantic
// list 0.4 + 0.6 × SemanticConfidence. The order is then:
//
//  1. alias results scoring 0.9 or more, in alias order;
//  2. when the dictionary confidence is 0.6 or more, its other results
//     within 0.1 of its top score, in fused order;
//  3. everything else in fused order, except
//  4. semantic country flags (regional-indicator pairs and subdivision
//     flags) that the dictionary did not return, which go last unless their
//     cosine reaches cal.Ceiling: flags sit close to many place and culture
//     words in embedding space and crowd out better answers.
func Fuse(alias []engine.Result, aliasConfidence float64, semantic []Hit, limit int, cal Calibration) []Item {
	if limit <= 0 {
		limit = defaultFuseSize
	}
	cal = cal.orDefault()
	conf := embed.Clamp01(aliasConfidence)
	es := fuseEntries(alias, semantic, Options{
		PinScore:       pinScore,
		AliasWeight:    minTierWeight + conf,
		SemanticWeight: minTierWeight + semanticGain*SemanticConfidence(semantic, cal),
	}.withDefaults())

	top := math.Inf(1) // no block unless the dictionary is confident
	if conf >= confidentAlias {
		top = math.Inf(-1)
		for _, e := range es {
			if e.alias && e.item.Score > top {
				top = e.item.Score
			}
		}
	}
	const (
		tierPinned = iota
		tierBlock
		tierFused
		tierFlags
	)
	tier := func(e entry) int {
		switch {
		case e.pinned:
			return tierPinned
		case e.alias && e.item.Score >= top-topBlockSpread-blockEpsilon:
			return tierBlock
		case !e.alias && isFlag(e.item.Emoji, e.item.ID) && !(e.cosine >= cal.Ceiling):
			return tierFlags
		}
		return tierFused
	}
	out := make([]Item, 0, min(limit, len(es)))
	for t := tierPinned; t <= tierFlags; t++ {
		for _, e := range es { // es is in fused order, pins first
			if len(out) == limit {
				return out
			}
			if tier(e) == t {
				out = append(out, e.item)
			}
		}
	}
	return out
}

// isFlag reports whether an emoji is a country flag: a pair of regional
// indicators (🇺🇸) or a subdivision flag (🏴 + tag letters + cancel tag, as
// 🏴󠁧󠁢󠁥󠁮󠁧󠁿). It reads the emoji, or the hexcode id when the emoji is empty.
func isFlag(emoji, id string) bool {
	rs := []rune(emoji)
	if len(rs) == 0 {
		for p := range strings.SplitSeq(id, "-") {
			v, err := strconv.ParseUint(p, 16, 32)
			if err != nil {
				return false
			}
			rs = append(rs, rune(v))
		}
	}
	switch {
	case len(rs) == 2:
		return isRegional(rs[0]) && isRegional(rs[1])
	case len(rs) >= 3 && rs[0] == 0x1F3F4 && rs[len(rs)-1] == 0xE007F:
		for _, r := range rs[1 : len(rs)-1] {
			if r < 0xE0020 || r > 0xE007E {
				return false
			}
		}
		return true
	}
	return false
}

func isRegional(r rune) bool { return r >= 0x1F1E6 && r <= 0x1F1FF }
