package index

import (
	"cmp"
	"maps"
	"slices"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCompletionDampFactors: along a word's postings, each family counts
// once at one factor, the families in the order of their strongest phrase
// (wordStrength) at 1, 0.9, 0.81... until the factor is under dampFloor.
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
			type family struct{ factor, strongest float32 }
			byFamily := map[int32]*family{}
			for i, v := range f {
				l := int(seg.terms.post.at(lo + i))
				fam := ix.Entries[seg.phEntry.at(l)].Family
				x, seen := byFamily[fam]
				if !seen {
					x = &family{factor: v}
					byFamily[fam] = x
				}
				assert.Equal(t, x.factor, v, "one factor per family")
				x.strongest = max(x.strongest, ix.wordStrength(seg, l))
			}
			// By factor, and the families that share the floor's by strength.
			fams := slices.SortedFunc(maps.Values(byFamily), func(a, b *family) int {
				return cmp.Or(cmp.Compare(b.factor, a.factor), cmp.Compare(b.strongest, a.strongest))
			})
			want := float32(1)
			for i, x := range fams {
				assert.Equal(t, want, x.factor, "family %d of %d", i, len(fams))
				if i > 0 {
					assert.GreaterOrEqual(t, fams[i-1].strongest, x.strongest, "a weaker family before a stronger one")
				}
				if want > dampFloor {
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
