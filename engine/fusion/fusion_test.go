package fusion

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/emojisearch/emojisearch/engine"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestShouldUseSemantic(t *testing.T) {
	for _, tc := range []struct {
		name       string
		confidence float64
		tokens     int
		want       bool
	}{
		{"unsure single word", 0.59, 1, true},
		{"sure single word at 0.6", 0.6, 1, false},
		{"phrase under 0.9", 0.89, 2, true},
		{"phrase at 0.9", 0.9, 3, false},
		{"no match", 0, 1, true},
		{"empty query", 0, 0, false},
		{"NaN confidence counts as 0", math.NaN(), 1, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, ShouldUseSemantic(tc.confidence, tc.tokens))
		})
	}
}

func TestSemanticConfidence(t *testing.T) {
	for _, tc := range []struct {
		name string
		hits []Hit
		cal  Calibration
		want float64
	}{
		{"no hits", nil, DefaultSemanticCalibration, 0},
		{"below floor clamps to 0", []Hit{h(joy, 0.30)}, DefaultSemanticCalibration, 0},
		{"at floor", []Hit{h(joy, 0.44)}, DefaultSemanticCalibration, 0},
		{"midway", []Hit{h(joy, 0.51)}, DefaultSemanticCalibration, 0.5},
		{"at ceiling", []Hit{h(joy, 0.58)}, DefaultSemanticCalibration, 1},
		{"above ceiling clamps to 1", []Hit{h(joy, 0.95)}, DefaultSemanticCalibration, 1},
		{"best cosine wins, not the first", []Hit{h(joy, 0.45), h(fire, 0.51)}, DefaultSemanticCalibration, 0.5},
		{"NaN ignored", []Hit{h(joy, math.NaN()), h(fire, 0.51)}, DefaultSemanticCalibration, 0.5},
		{"only NaN", []Hit{h(joy, math.NaN())}, DefaultSemanticCalibration, 0},
		{"negative", []Hit{h(joy, -0.9)}, DefaultSemanticCalibration, 0},
		{"own calibration", []Hit{h(joy, 0.65)}, Calibration{0.6, 0.7}, 0.5},
		{"zero calibration is the default", []Hit{h(joy, 0.51)}, Calibration{}, 0.5},
		{"NaN calibration is the default", []Hit{h(joy, 0.51)}, Calibration{math.NaN(), 0.7}, 0.5},
		{"inverted calibration steps at ceiling: above", []Hit{h(joy, 0.5)}, Calibration{0.6, 0.5}, 1},
		{"inverted calibration steps at ceiling: below", []Hit{h(joy, 0.49)}, Calibration{0.6, 0.5}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.InDelta(t, tc.want, SemanticConfidence(tc.hits, tc.cal), 1e-9)
		})
	}
}

func TestFuseResults(t *testing.T) {
	for _, tc := range []struct {
		name     string
		alias    []engine.Result
		semantic []Hit
		opts     Options
		want     []string
	}{
		{name: "empty inputs", want: []string{}},
		{name: "alias only keeps order", alias: r(a(joy, 0.5), a(grin, 0.4)), want: []string{joy, grin}},
		{name: "semantic only keeps order", semantic: []Hit{h(fire, 0.5), h(star, 0.6)}, want: []string{fire, star}},
		// grin is in both lists: 2/62 beats joy's 1/61.
		{name: "both lists add up", alias: r(a(joy, 0.5), a(grin, 0.4)), semantic: []Hit{h(fire, 0.6), h(grin, 0.5)},
			want: []string{grin, joy, fire}},
		// equal contributions: alias first, then semantic.
		{name: "ties keep alias first", alias: r(a(joy, 0.5)), semantic: []Hit{h(fire, 0.6)}, want: []string{joy, fire}},
		// without the pin, fire (in both lists) would lead.
		{name: "pinned stay on top in alias order", alias: r(a(joy, 0.91), a(fire, 0.3), a(grin, 0.99)),
			semantic: []Hit{h(fire, 0.7)}, want: []string{joy, grin, fire}},
		{name: "pinned ignore semantic rank", alias: r(a(joy, 0.95), a(grin, 0.5)),
			semantic: []Hit{h(grin, 0.9), h(joy, 0.8)}, want: []string{joy, grin}},
		{name: "PinScore above 1 pins nothing", alias: r(a(joy, 0.91), a(fire, 0.3), a(grin, 0.99)),
			semantic: []Hit{h(fire, 0.7)}, opts: Options{PinScore: 2}, want: []string{fire, joy, grin}},
		{name: "own PinScore", alias: r(a(joy, 0.5), a(fire, 0.7)), semantic: []Hit{h(joy, 0.7)},
			opts: Options{PinScore: 0.6}, want: []string{fire, joy}},
		{name: "AliasFloor off keeps weak alias", alias: r(a(joy, 0.5), a(grin, 0.1)), want: []string{joy, grin}},
		{name: "AliasFloor drops below it", alias: r(a(joy, 0.5), a(grin, 0.1), a(fire, 0.3)),
			opts: Options{AliasFloor: 0.3}, want: []string{joy, fire}},
		{name: "AliasFloor drops NaN", alias: r(a(joy, math.NaN()), a(fire, 0.3)),
			opts: Options{AliasFloor: 0.3}, want: []string{fire}},
		// joy 1/(K+1) vs fire 2/(K+3): fire leads iff K > 1.
		{name: "K default 60", alias: r(a(joy, 0.5), a(grin, 0.4), a(fire, 0.3)), semantic: []Hit{h(star, 0.6), h(party, 0.6), h(fire, 0.6)},
			want: []string{fire, joy, star, grin, party}},
		{name: "small K", alias: r(a(joy, 0.5), a(grin, 0.4), a(fire, 0.3)), semantic: []Hit{h(star, 0.6), h(party, 0.6), h(fire, 0.6)},
			opts: Options{K: 0.5}, want: []string{joy, star, fire, grin, party}},
		{name: "SemanticWeight", alias: r(a(joy, 0.5)), semantic: []Hit{h(fire, 0.6)},
			opts: Options{SemanticWeight: 2}, want: []string{fire, joy}},
		{name: "AliasWeight", alias: r(a(joy, 0.5), a(grin, 0.5)), semantic: []Hit{h(fire, 0.6)},
			opts: Options{AliasWeight: 2}, want: []string{joy, grin, fire}},
		{name: "negative and NaN weights take the default", alias: r(a(joy, 0.5)), semantic: []Hit{h(fire, 0.6)},
			opts: Options{AliasWeight: -1, SemanticWeight: math.NaN(), K: math.Inf(1)}, want: []string{joy, fire}},
		{name: "skin tones dedupe within semantic", semantic: []Hit{h(waveM, 0.6), h(wave, 0.5), h(waveD, 0.4), h(fire, 0.3)},
			want: []string{waveM, fire}},
		{name: "skin tone meets alias base", alias: r(a(wave, 0.5)), semantic: []Hit{h(waveD, 0.6)}, want: []string{wave}},
		{name: "duplicate alias keeps first", alias: r(a(joy, 0.5), a(joy, 0.95)), want: []string{joy}},
		{name: "hit without id dedupes by its emoji", alias: r(a(joy, 0.5)), semantic: []Hit{{Emoji: glyph(joy), Cosine: 0.9}},
			want: []string{joy}},
		{name: "hit without id or emoji is dropped", semantic: []Hit{{Cosine: 0.9}, h(fire, 0.5)}, want: []string{fire}},
		{name: "NaN and negative cosines never panic", semantic: []Hit{h(fire, math.NaN()), h(star, -1), h(joy, math.Inf(-1))},
			want: []string{fire, star, joy}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := FuseResults(tc.alias, tc.semantic, tc.opts)
			require.Equal(t, tc.want, ids(got))
		})
	}
}

func TestFuseResultsItems(t *testing.T) {
	got := FuseResults(r(a(joy, 0.5), a(wave, 1.3)), []Hit{h(joy, 0.9), h(fire, 0.7), h(star, -0.2), h(party, math.NaN()), h(rocket, 1.4)}, Options{})
	byID := map[string]Item{}
	for _, it := range got {
		byID[it.ID] = it
	}
	t.Run("alias item kept in both lists", func(t *testing.T) {
		assert.Equal(t, Item{Emoji: glyph(joy), ID: joy, Score: 0.5, Source: SourceAlias, Label: "label " + joy, Match: "m", Field: "name"}, byID[joy])
	})
	t.Run("alias score clamped", func(t *testing.T) { assert.Equal(t, 1.0, byID[wave].Score) })
	t.Run("semantic score is the cosine", func(t *testing.T) {
		assert.Equal(t, Item{Emoji: glyph(fire), ID: fire, Score: 0.7, Source: SourceSemantic}, byID[fire])
	})
	t.Run("negative cosine scores 0", func(t *testing.T) { assert.Equal(t, 0.0, byID[star].Score) })
	t.Run("NaN cosine scores 0", func(t *testing.T) { assert.Equal(t, 0.0, byID[party].Score) })
	t.Run("cosine above 1 scores 1", func(t *testing.T) { assert.Equal(t, 1.0, byID[rocket].Score) })
	t.Run("custom source kept", func(t *testing.T) {
		c := a(joy, 0.5)
		c.Source = "custom"
		assert.Equal(t, "custom", FuseResults(r(c), nil, Options{})[0].Source)
	})
	t.Run("empty source becomes alias", func(t *testing.T) {
		c := a(joy, 0.5)
		c.Source = ""
		assert.Equal(t, SourceAlias, FuseResults(r(c), nil, Options{})[0].Source)
	})
	t.Run("semantic JSON has no alias fields", func(t *testing.T) {
		b, err := json.Marshal(byID[fire])
		require.NoError(t, err)
		assert.JSONEq(t, `{"emoji":"🔥","id":"1F525","score":0.7,"source":"semantic"}`, string(b))
	})
}

func TestIsFlag(t *testing.T) {
	for _, tc := range []struct {
		name, emoji, id string
		want            bool
	}{
		{"country", glyph(usFlag), usFlag, true},
		{"subdivision", glyph(engl), engl, true},
		{"id only", "", frFlag, true},
		{"pirate flag is no country", glyph(pirate), pirate, false},
		{"skin tone pair", glyph(waveM), waveM, false},
		{"single regional indicator", glyph("1F1FA"), "1F1FA", false},
		{"black flag alone", glyph("1F3F4"), "1F3F4", false},
		{"bad id", "", "zz-1F1FA", false},
	} {
		t.Run(tc.name, func(t *testing.T) { assert.Equal(t, tc.want, isFlag(tc.emoji, tc.id)) })
	}
}
