package index

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCompletionDampFactors: along a word's postings, each family counts
// once at one factor, the families in the order of their static strength
// at 1, 0.9, 0.81... down to dampFloor.
func TestCompletionDampFactors(t *testing.T) {
	ix := allLocales(t)
	seg := ix.segs[0]
	for _, word := range []string{"ball", "bird", "happy", "face", "tea"} {
		t.Run(word, func(t *testing.T) {
			k, ok := seg.terms.find(word)
			require.True(t, ok)
			lo, hi := seg.terms.list(k)
			f := ix.dampOf(0, k, lo, hi)
			require.Len(t, f, hi-lo)
			byFamily := map[int32]float32{}
			strongest := map[int32]float32{}
			for i, v := range f {
				l := int(seg.terms.post.at(lo + i))
				e := &ix.Entries[seg.phEntry.at(l)]
				if old, seen := byFamily[e.Family]; seen {
					assert.Equal(t, old, v, "one factor per family")
				}
				byFamily[e.Family] = v
				s := ix.Weights[seg.phField.at(l)] * (0.6 + 0.4/float32(max(1, seg.phNTok.at(l))))
				strongest[e.Family] = max(strongest[e.Family], s)
				assert.GreaterOrEqual(t, v, float32(dampFloor*completionDamp))
				assert.LessOrEqual(t, v, float32(1))
			}
			// The factors, best family first, are the powers of completionDamp.
			var fams []int32
			for fam := range byFamily {
				fams = append(fams, fam)
			}
			want := float32(1)
			for range fams {
				n := 0
				for fam, v := range byFamily {
					if v == want {
						n++
						for other, w := range byFamily {
							if w < v {
								assert.GreaterOrEqual(t, strongest[fam], strongest[other], "a weaker family before a stronger one")
							}
						}
					}
				}
				if want > dampFloor {
					assert.Equal(t, 1, n, "one family at %v", want)
					want *= completionDamp
				}
			}
		})
	}
}

// TestCompletionsOfSeveralWords: while a one-word query is being typed, the
// first places hold the best emoji of several words it may become, and a
// full word or a longer query is ranked as before.
func TestCompletionsOfSeveralWords(t *testing.T) {
	ix := allLocales(t)
	p := Params{Limit: 10, Prefix: true, Loc: 0, Mask: 1, MinCoverage: 0.34}
	words := map[string]bool{}
	for _, h := range search(ix, "bir", p)[:5] {
		words[ix.HitText(h)] = true
	}
	assert.GreaterOrEqual(t, len(words), 3, "the first five of \"bir\" complete %v", words)
	top := search(ix, "face with tea", p)
	require.NotEmpty(t, top)
	assert.Equal(t, "😂", ix.Entries[top[0].Entry].Emoji, "a longer query: the phrase it types leads")
}

// TestCompletionDampConcurrent: searches racing to fill the same words'
// factors (a fresh index over the same segments) answer as one search
// alone does.
func TestCompletionDampConcurrent(t *testing.T) {
	ix := allLocales(t)
	fresh, err := New(ix.segs...)
	require.NoError(t, err)
	p := Params{Limit: 10, Prefix: true, Loc: 0, Mask: 1, MinCoverage: 0.34}
	queries := []string{"bir", "bal", "hap", "cel", "pai", "sun", "tea", "fac"}
	want := make([][]Hit, len(queries))
	for i, q := range queries {
		want[i] = search(ix, q, p)
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i, q := range queries {
				assert.Equal(t, want[i], search(fresh, q, p), q)
			}
		}()
	}
	wg.Wait()
}
