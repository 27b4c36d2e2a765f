package vectors_test

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/engine/packfmt"
	"github.com/emojisearch/emojisearch/engine/vectors"
)

// evalDir holds the shared dev sets (shared/ sits beside the repository).
const evalDir = "../../../shared/eval/search"

// stripEmoji drops U+FE0F and skin tones, as the evaluation compares emoji.
func stripEmoji(s string) string {
	s = strings.ReplaceAll(s, "\uFE0F", "")
	for r := rune(0x1F3FB); r <= 0x1F3FF; r++ {
		s = strings.ReplaceAll(s, string(r), "")
	}
	return s
}

// TestSemanticDevSets runs the meaning tier alone (local model, English
// file plus the set's locale file, top 10) on the dev sets and guards its
// quality; it logs the top cosine of right and wrong answers, the figures a
// fusion calibration for glove-cldr@100 starts from.
func TestSemanticDevSets(t *testing.T) {
	if _, err := os.Stat(evalDir); err != nil {
		t.Skip("no shared/eval beside the repository")
	}
	pb, err := os.ReadFile(filepath.Join(packDir, "pack.en.json"))
	require.NoError(t, err)
	p, err := packfmt.Decode(pb)
	require.NoError(t, err)
	emojiOf := map[string]string{}
	for _, r := range p.Rows {
		emojiOf[r.ID] = stripEmoji(r.Emoji)
	}
	tests := []struct {
		file    string
		minHit  float64 // hit@10 floor (measured on e17c48r2, one row per emoji: 0.781, 0.587, 0.670)
		locales []string
	}{
		{"en.emojilib", 0.77, []string{"en"}},
		{"en.openmoji-tags", 0.57, []string{"en"}},
		{"zh.rime.dev", 0.66, []string{"en", "zh"}},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			m, idx := loadFiles(t, tc.locales...)
			f, err := os.Open(filepath.Join(evalDir, tc.file+".jsonl"))
			require.NoError(t, err)
			defer f.Close()
			n, hit10 := 0, 0
			var mrr float64
			var right, wrong []float64
			sc := bufio.NewScanner(f)
			for sc.Scan() {
				var c struct {
					Q    string   `json:"q"`
					Gold []string `json:"gold"`
				}
				require.NoError(t, json.Unmarshal(sc.Bytes(), &c))
				gold := map[string]bool{}
				for _, g := range c.Gold {
					gold[stripEmoji(g)] = true
				}
				res := vectors.SearchVectorSets(idx, m.Embed(c.Q), 10)
				n++
				at := -1
				for i, r := range res {
					if gold[emojiOf[r.ID]] {
						at = i
						break
					}
				}
				if at >= 0 {
					hit10++
					mrr += 1 / float64(at+1)
				}
				if len(res) > 0 && at == 0 {
					right = append(right, float64(res[0].Score))
				} else if len(res) > 0 {
					wrong = append(wrong, float64(res[0].Score))
				}
			}
			hit := float64(hit10) / float64(n)
			t.Logf("%s: n=%d hit@10=%.3f MRR@10=%.3f; top cosine p25/p50/p75 when right %.2f/%.2f/%.2f, otherwise %.2f/%.2f/%.2f",
				tc.file, n, hit, mrr/float64(n), quantile(right, .25), quantile(right, .5), quantile(right, .75),
				quantile(wrong, .25), quantile(wrong, .5), quantile(wrong, .75))
			assert.GreaterOrEqual(t, hit, tc.minHit)
		})
	}
}

func quantile(v []float64, p float64) float64 {
	if len(v) == 0 {
		return 0
	}
	sort.Float64s(v)
	return v[int(p*float64(len(v)-1))]
}
