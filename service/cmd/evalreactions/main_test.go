package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestScore(t *testing.T) {
	cases := []struct {
		name           string
		got            []string
		gold           []string
		h1, h3, h5, r5 float64
		mrr            float64
	}{
		{"first", []string{"😂", "❤️"}, []string{"😂"}, 1, 1, 1, 1, 1},
		{"third of three gold", []string{"👍", "🙏", "😡", "😠"}, []string{"😠", "😡", "😤"}, 0, 1, 1, 2.0 / 3, 1.0 / 3},
		{"sixth", []string{"1", "2", "3", "4", "5", "😢"}, []string{"😢"}, 0, 0, 0, 0, 1.0 / 6},
		{"variation selector and tone ignored", []string{"❤️", "👍🏽"}, []string{"👍"}, 0, 1, 1, 1, 0.5},
		{"miss", []string{"😂"}, []string{"🎄"}, 0, 0, 0, 0, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var s score
			s.add(c.got, goldOf(row{Gold: c.gold}))
			assert.Equal(t, []float64{c.h1, c.h3, c.h5}, []float64{s.h1, s.h3, s.h5})
			assert.InDelta(t, c.r5, s.r5, 1e-9)
			assert.InDelta(t, c.mrr, s.mrr, 1e-9)
		})
	}
}

// TestPricedHit checks the calibration's hit: a gold emoji counts fully, a
// default face the set cannot judge with the judged faces' mean chance.
func TestPricedHit(t *testing.T) {
	c := &calibration{rows: []row{{Gold: []string{"❤"}}, {Gold: []string{"😂"}}, {Gold: []string{"🔥"}}, {Gold: []string{"🔥"}}},
		labels: map[string]bool{"❤": true, "😂": true, "🔥": true, "😍": true}}
	c.priceFaces()
	assert.Equal(t, map[string]bool{"😢": true, "😡": true}, c.unjudged)
	assert.InDelta(t, (0.25+0.25+0)/3, c.faceChance, 1e-9) // 😂, ❤️, 😍 judged
	p := c.faceChance
	assert.InDelta(t, 1, c.hit(0, []string{"❤️", "😢"}), 1e-9)
	assert.InDelta(t, 1-(1-p)*(1-p), c.hit(2, []string{"😂", "😢", "😡"}), 1e-9)
	assert.InDelta(t, 0, c.hit(2, []string{"😂", "😍"}), 1e-9)
}
