package fusion

import (
	"strconv"
	"strings"

	"github.com/emojisearch/emojisearch/engine"
)

// glyph turns a hexcode id into its emoji.
func glyph(id string) string {
	var b strings.Builder
	for p := range strings.SplitSeq(id, "-") {
		v, _ := strconv.ParseUint(p, 16, 32)
		b.WriteRune(rune(v))
	}
	return b.String()
}

// a is an alias result.
func a(id string, score float64) engine.Result {
	return engine.Result{Emoji: glyph(id), ID: id, Score: score, Source: SourceAlias, Label: "label " + id, Match: "m", Field: "name"}
}

// h is a semantic hit.
func h(id string, cosine float64) Hit { return Hit{ID: id, Emoji: glyph(id), Cosine: cosine} }

func ids(items []Item) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = it.ID
	}
	return out
}

// Hexcodes used by the tests.
const (
	grin   = "1F600"
	joy    = "1F602"
	heart  = "2764-FE0F"
	fire   = "1F525"
	party  = "1F389"
	rocket = "1F680"
	star   = "2B50"
	wave   = "1F44B"
	waveM  = "1F44B-1F3FD" // wave, medium skin tone
	waveD  = "1F44B-1F3FF" // wave, dark skin tone
	usFlag = "1F1FA-1F1F8"
	frFlag = "1F1EB-1F1F7"
	engl   = "1F3F4-E0067-E0062-E0065-E006E-E0067-E007F" // England
	pirate = "1F3F4-200D-2620-FE0F"
)

// r lists alias results.
func r(rs ...engine.Result) []engine.Result { return rs }
