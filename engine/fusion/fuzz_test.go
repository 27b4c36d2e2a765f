package fusion

import (
	"math"
	"testing"

	"github.com/emojisearch/emojisearch/engine"
	"github.com/stretchr/testify/require"
)

// fuzzIDs is the pool fuzz inputs pick from: plain emoji, skin-tone
// variants of one base, flags and an empty id.
var fuzzIDs = []string{grin, joy, heart, fire, party, rocket, star, wave, waveM, waveD, usFlag, frFlag, engl, pirate, ""}

// fuzzScore maps a byte to a score, including the awkward ones.
func fuzzScore(b byte) float64 {
	switch b {
	case 0:
		return math.NaN()
	case 1:
		return math.Inf(1)
	case 2:
		return math.Inf(-1)
	case 3:
		return -0.5
	case 4:
		return 1.5
	}
	return float64(b) / 255
}

// FuzzFuse checks Fuse's invariants on random lists: no emoji twice (by
// base id), at most limit items, scores in 0..1, and the pinned alias
// results (score 0.9 or more) first and in alias order.
func FuzzFuse(f *testing.F) {
	f.Add([]byte{0, 250, 1, 200, 10, 100, 11, 150}, []byte{7, 150, 10, 140, 12, 149, 8, 0}, byte(200), int8(5), byte(112), byte(148))
	f.Add([]byte{}, []byte{}, byte(0), int8(0), byte(0), byte(0))
	f.Add([]byte{9, 255, 7, 240, 8, 1}, []byte{9, 3, 9, 2}, byte(0), int8(-3), byte(200), byte(100))
	f.Fuzz(func(t *testing.T, aliasIn, semIn []byte, conf byte, limit int8, floor, ceiling byte) {
		var alias []engine.Result
		for i := 0; i+1 < len(aliasIn); i += 2 {
			id := fuzzIDs[int(aliasIn[i])%len(fuzzIDs)]
			res := engine.Result{ID: id, Score: fuzzScore(aliasIn[i+1]), Source: SourceAlias}
			if id != "" {
				res.Emoji = glyph(id)
			}
			alias = append(alias, res)
		}
		var hits []Hit
		for i := 0; i+1 < len(semIn); i += 2 {
			id := fuzzIDs[int(semIn[i])%len(fuzzIDs)]
			hit := Hit{Cosine: fuzzScore(semIn[i+1])}
			if semIn[i]&0x80 == 0 { // sometimes only the emoji
				hit.ID = id
			}
			if id != "" {
				hit.Emoji = glyph(id)
			}
			hits = append(hits, hit)
		}
		cal := Calibration{fuzzScore(floor), fuzzScore(ceiling)}

		got := Fuse(alias, fuzzScore(conf), hits, int(limit), cal)

		want := int(limit)
		if want <= 0 {
			want = engine.DefaultLimit
		}
		require.LessOrEqual(t, len(got), want)
		seen := map[string]bool{}
		var pinned []string
		unpinnedSeen := false
		for _, it := range got {
			k := key(it.ID, it.Emoji)
			require.NotEmpty(t, k)
			require.False(t, seen[k], "duplicate %s in %v", k, ids(got))
			seen[k] = true
			require.True(t, it.Score >= 0 && it.Score <= 1, "score %v", it.Score)
			if it.Source == SourceAlias && it.Score >= 0.9 {
				require.False(t, unpinnedSeen, "pinned %s after an unpinned item in %v", it.ID, ids(got))
				pinned = append(pinned, k)
			} else {
				unpinnedSeen = true
			}
		}
		// Pinned items keep the order of their first alias occurrence.
		var order []string
		first := map[string]bool{}
		for _, res := range alias {
			k := key(res.ID, res.Emoji)
			if k != "" && !first[k] {
				first[k] = true
				if res.Score >= 0.9 {
					order = append(order, k)
				}
			}
		}
		require.Equal(t, order[:len(pinned)], pinned)
	})
}
