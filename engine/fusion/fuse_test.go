package fusion

import (
	"fmt"
	"math"
	"testing"

	"github.com/emojisearch/emojisearch/engine"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFuse(t *testing.T) {
	weak := r(a(joy, 0.3))
	for _, tc := range []struct {
		name     string
		alias    []engine.Result
		conf     float64
		semantic []Hit
		limit    int
		cal      Calibration
		want     []string
	}{
		{name: "empty inputs", want: []string{}},
		{name: "alias only", alias: r(a(joy, 0.5), a(grin, 0.4)), conf: 0.5, want: []string{joy, grin}},
		{name: "semantic only", semantic: []Hit{h(fire, 0.5), h(star, 0.4)}, want: []string{fire, star}},

		// Dictionary weight 0.4 + confidence: at 0.8 grin (1.2/62) beats fire (1/61).
		{name: "dictionary weight grows with confidence", alias: r(a(joy, 0.8), a(grin, 0.3)), conf: 0.8,
			semantic: []Hit{h(fire, 0.58)}, want: []string{joy, grin, fire}},
		{name: "weak dictionary loses to a sure semantic hit", alias: r(a(joy, 0.5), a(grin, 0.3)), conf: 0.5,
			semantic: []Hit{h(fire, 0.58)}, want: []string{fire, joy, grin}},
		// Semantic weight 0.4 → 1 over floor → ceiling; joy weighs 0.7.
		{name: "semantic at ceiling weighs 1", alias: weak, conf: 0.3, semantic: []Hit{h(fire, 0.58)}, want: []string{fire, joy}},
		{name: "semantic at floor weighs 0.4", alias: weak, conf: 0.3, semantic: []Hit{h(fire, 0.44)}, want: []string{joy, fire}},
		{name: "semantic weight linear: 0.52 weighs 0.74", alias: weak, conf: 0.3, semantic: []Hit{h(fire, 0.52)}, want: []string{fire, joy}},
		{name: "semantic weight linear: 0.50 weighs 0.66", alias: weak, conf: 0.3, semantic: []Hit{h(fire, 0.50)}, want: []string{joy, fire}},
		{name: "below floor clamps to 0.4", alias: weak, conf: 0.3, semantic: []Hit{h(fire, -0.5)}, want: []string{joy, fire}},
		{name: "above ceiling clamps to 1", alias: r(a(joy, 0.8), a(grin, 0.3)), conf: 0.8,
			semantic: []Hit{h(fire, 0.95)}, want: []string{joy, grin, fire}},
		{name: "own calibration", alias: weak, conf: 0.3, semantic: []Hit{h(fire, 0.58)}, cal: Calibration{0.6, 0.7}, want: []string{joy, fire}},

		{name: "pins stay on top in alias order", alias: r(a(grin, 0.91), a(joy, 0.99)), conf: 0.91,
			semantic: []Hit{h(joy, 0.58)}, want: []string{grin, joy}},
		{name: "pins above stronger fused results", alias: r(a(joy, 0.95), a(grin, 0.92), a(fire, 0.2)), conf: 0.95,
			semantic: []Hit{h(star, 0.58), h(party, 0.58), h(fire, 0.58)}, want: []string{joy, grin, fire, star, party}},

		// star (alias rank 5) is within 0.1 of the top: it comes right after joy.
		{name: "confident dictionary block comes next", alias: r(a(joy, 0.65), a(grin, 0.2), a(heart, 0.2), a(party, 0.2), a(rocket, 0.2), a(star, 0.6)),
			conf: 0.6, semantic: []Hit{h(fire, 0.58), h(wave, 0.58)},
			want: []string{joy, star, fire, grin, wave, heart, party, rocket}},
		{name: "no block under 0.6", alias: r(a(joy, 0.65), a(grin, 0.2), a(heart, 0.2), a(party, 0.2), a(rocket, 0.2), a(star, 0.6)),
			conf: 0.59, semantic: []Hit{h(fire, 0.58), h(wave, 0.58)},
			want: []string{fire, joy, wave, grin, heart, party, rocket, star}},
		{name: "block includes exactly 0.1 below top", alias: r(a(joy, 0.8), a(grin, 0.2), a(star, 0.7)), conf: 0.8,
			semantic: []Hit{h(fire, 0.58), h(wave, 0.58)}, want: []string{joy, star, grin, fire, wave}},
		{name: "block is in fused order", alias: r(a(joy, 0.8), a(grin, 0.75), a(star, 0.78)), conf: 0.8,
			semantic: []Hit{h(star, 0.58)}, want: []string{star, joy, grin}},

		{name: "semantic flags go last", semantic: []Hit{h(usFlag, 0.57), h(fire, 0.5), h(engl, 0.56), h(star, 0.45)},
			want: []string{fire, star, usFlag, engl}},
		{name: "flag at ceiling keeps its place", semantic: []Hit{h(usFlag, 0.58), h(fire, 0.5)}, want: []string{usFlag, fire}},
		{name: "flag from the dictionary keeps its place", alias: r(a(usFlag, 0.5)), conf: 0.5,
			semantic: []Hit{h(usFlag, 0.57), h(fire, 0.5)}, want: []string{usFlag, fire}},
		{name: "NaN flag goes last", semantic: []Hit{h(usFlag, math.NaN()), h(fire, 0.5)}, want: []string{fire, usFlag}},
		{name: "own ceiling for flags", semantic: []Hit{h(usFlag, 0.5), h(fire, 0.4)}, cal: Calibration{0.3, 0.5}, want: []string{usFlag, fire}},
		{name: "pirate flag is no country", semantic: []Hit{h(pirate, 0.5), h(fire, 0.5)}, want: []string{pirate, fire}},
		{name: "flags last before the cut", semantic: []Hit{h(usFlag, 0.5), h(frFlag, 0.5), h(fire, 0.4)}, limit: 2,
			want: []string{fire, usFlag}},

		{name: "skin tones appear once", alias: r(a(wave, 0.5)), conf: 0.5, semantic: []Hit{h(waveM, 0.6), h(waveD, 0.5)},
			want: []string{wave}},
		{name: "limit cuts", alias: r(a(joy, 0.5), a(grin, 0.4)), conf: 0.5, semantic: []Hit{h(fire, 0.58)}, limit: 2,
			want: []string{fire, joy}},
		{name: "limit cuts pins", alias: r(a(joy, 0.99), a(grin, 0.98), a(fire, 0.97)), conf: 0.99, limit: 2,
			want: []string{joy, grin}},
		{name: "NaN never panics", alias: r(a(joy, math.NaN())), conf: math.NaN(),
			semantic: []Hit{h(fire, math.NaN()), h(star, math.Inf(-1)), h(grin, -0.3)}, want: []string{joy, fire, star, grin}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Fuse(tc.alias, tc.conf, tc.semantic, tc.limit, tc.cal)
			require.Equal(t, tc.want, ids(got))
			for _, it := range got {
				assert.True(t, it.Score >= 0 && it.Score <= 1, "score %v", it.Score)
			}
		})
	}
}

func TestFuseDefaultLimit(t *testing.T) {
	hits := make([]Hit, 40)
	for i := range hits {
		hits[i] = h(fmt.Sprintf("1F6%02X", i), 0.5)
	}
	for _, limit := range []int{0, -1} {
		t.Run(fmt.Sprint(limit), func(t *testing.T) {
			assert.Len(t, Fuse(nil, 0, hits, limit, DefaultSemanticCalibration), engine.DefaultLimit)
		})
	}
}
