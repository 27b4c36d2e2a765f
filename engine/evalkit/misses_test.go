package evalkit

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/engine"
)

// results builds a result list: emoji of one letter each, the first with
// the given field.
func results(emoji string, field string) []engine.Result {
	var out []engine.Result
	for _, r := range emoji {
		out = append(out, engine.Result{Emoji: string(r), Field: "keyword"})
	}
	if len(out) > 0 {
		out[0].Field = field
	}
	return out
}

func TestClassifyQuery(t *testing.T) {
	gold := map[string]bool{"g": true}
	tests := []struct {
		name    string
		results []engine.Result
		want    QueryClass
	}{
		{"first", results("gab", "name"), GoldFirst},
		{"third", results("abg", "name"), GoldTop3},
		{"fourth", results("abcg", "name"), GoldTop10},
		{"tenth", results("abcdefghij", "name"), GoldTop10},
		{"eleventh", results("abcdefhijkg", "name"), GoldTop24},
		{"nothing", nil, NoResult},
		{"typo first", results("ab", "typo"), AbsentTypo},
		{"related first", results("ab", "low"), AbsentRelated},
		{"editorial first", results("ab", "editorial"), AbsentEditorial},
		{"editorial more first", results("ab", "editorial_more"), AbsentEditorial},
		{"keyword first", results("ab", "keyword"), AbsentDictionary},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, ClassifyQuery(tc.results, gold))
		})
	}
	thumbs := map[string]bool{key("👍\ufe0f"): true}
	assert.Equal(t, GoldFirst, ClassifyQuery([]engine.Result{{Emoji: "👍🏽"}}, thumbs), "skin tones and U+FE0F are folded")
}

func TestClassifyTyping(t *testing.T) {
	gold := map[string]bool{"g": true}
	tests := []struct {
		name              string
		completions, full []engine.Result
		want              TypingClass
	}{
		{"in the top 10", results("abg", "name"), results("g", "name"), TypingHit},
		{"in the top 10 though the full query misses", results("g", "name"), results("ab", "name"), TypingHit},
		{"full query misses", results("abcdefhijkg", "name"), results("ab", "name"), TypingFullMiss},
		{"full query has it at 11", results("ab", "name"), results("abcdefhijkg", "name"), TypingFullMiss},
		{"below 10", results("abcdefhijkg", "name"), results("g", "name"), TypingBelow10},
		{"not completed", results("ab", "name"), results("g", "name"), TypingNotCompleted},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, ClassifyTyping(tc.completions, tc.full, gold))
		})
	}
}

// TestMissesAddUp: every query falls in exactly one class, and the
// classes agree with Evaluate's hit@1, hit@10 and three-letter typing.
func TestMissesAddUp(t *testing.T) {
	eng, err := LoadEngine(packDir, "en")
	require.NoError(t, err)
	rows := []Row{{Q: "cat", Gold: []string{"🐈"}}, {Q: "pizza", Gold: []string{"🍕"}}, {Q: "ok", Gold: []string{"👌"}}, {Q: "zzqqxx", Gold: []string{"🦄"}}}
	m := Misses(eng, rows, "en")
	require.Equal(t, len(rows), m.N)
	sum := 0
	for _, n := range m.Query {
		sum += n
	}
	assert.Equal(t, m.N, sum)
	typed := 0
	for _, n := range m.Typing {
		typed += n
	}
	assert.Equal(t, 3, m.TypingN, "ok is shorter than three characters")
	assert.Equal(t, m.TypingN, typed)
	ev := Evaluate(eng, rows, engine.Options{Limit: 10, Locale: "en"})
	assert.InDelta(t, ev.Hit1, float64(m.Query[GoldFirst])/float64(m.N), 1e-9)
	assert.InDelta(t, ev.Hit10, float64(m.Query[GoldFirst]+m.Query[GoldTop3]+m.Query[GoldTop10])/float64(m.N), 1e-9)
	assert.InDelta(t, ev.TypingByLen[0], float64(m.Typing[TypingHit])/float64(m.TypingN), 1e-9)
	assert.Equal(t, 1, m.Query[NoResult]+m.Query[AbsentTypo]+m.Query[AbsentRelated]+m.Query[AbsentDictionary]+m.Query[AbsentEditorial], "zzqqxx finds no unicorn")
}
