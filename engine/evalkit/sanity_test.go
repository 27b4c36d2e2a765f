package evalkit

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/engine"
)

// sanityCase is one line of an obvious-word list: the query, the emoji one
// of which must lead, and emoji that must stay out of the top sanityNotTop.
type sanityCase struct {
	q         string
	lead, not []string
}

// sanityNotTop is the number of first places the third column keeps clear.
const sanityNotTop = 5

// sanityFloor is the share of each list's words that must pass: the lists
// also hold words whose obvious emoji still trail (each miss is logged),
// and the floor keeps what passes from sliding back.
const sanityFloor = 0.9

// sanityStrict are the cases of issue 29 that must pass every time.
var sanityStrict = map[string]bool{
	"en birthday": true, "en thank you": true, "en love": true, "ru я заболел": true, "ru я замерзаю": true,
	"ru пойдём играть в футбол": true, "es vamos a jugar al fútbol": true, "fr on joue au foot": true,
	"ar في صحتك": true, "hi मुझे बुखार है": true, "bn আমি অসুস্থ": true,
}

// sanityMin is the number of words each list must hold: 300 in English,
// 100 in every other locale (issue 29).
func sanityMin(loc string) int {
	if loc == "en" {
		return 300
	}
	return 100
}

// readSanity reads engine/testdata/sanity/<locale>.tsv (lines starting with
// # are comments).
func readSanity(path string) ([]sanityCase, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []sanityCase
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cols := strings.Split(line, "\t")
		if len(cols) < 2 || len(cols) > 3 || cols[0] == "" || len(strings.Fields(cols[1])) == 0 {
			return nil, fmt.Errorf("%s:%d: want query<TAB>lead emoji[<TAB>emoji kept out of the top %d]", path, n, sanityNotTop)
		}
		c := sanityCase{q: cols[0], lead: strings.Fields(cols[1])}
		if len(cols) == 3 {
			c.not = strings.Fields(cols[2])
		}
		out = append(out, c)
	}
	return out, sc.Err()
}

// sanityMiss says what is wrong with the answer to c, or "".
func sanityMiss(results []engine.Result, c sanityCase) string {
	if len(results) == 0 {
		return "no result"
	}
	lead := false
	for _, e := range c.lead {
		lead = lead || key(results[0].Emoji) == key(e)
	}
	if !lead {
		return "led by " + results[0].Emoji + " (" + results[0].Match + ")"
	}
	for _, r := range results[:min(sanityNotTop, len(results))] {
		for _, e := range c.not {
			if key(r.Emoji) == key(e) {
				return e + " in the top " + fmt.Sprint(sanityNotTop)
			}
		}
	}
	return ""
}

// TestObviousWords: the obvious-word lists (engine/testdata/sanity, written
// by us as product data, never from an evaluation set) give their words
// the obvious emoji first in every locale, as the service ranks with the
// dictionary alone (limit 10, prefix off): at least sanityFloor of each
// list, and every case of sanityStrict.
func TestObviousWords(t *testing.T) {
	engs := engines(t)
	files, err := filepath.Glob(filepath.Join("..", "testdata", "sanity", "*.tsv"))
	require.NoError(t, err)
	require.Len(t, files, len(engs))
	for _, f := range files {
		loc := strings.TrimSuffix(filepath.Base(f), ".tsv")
		t.Run(loc, func(t *testing.T) {
			cases, err := readSanity(f)
			require.NoError(t, err)
			require.GreaterOrEqual(t, len(cases), sanityMin(loc))
			seen := map[string]bool{}
			pass, strict := 0, 0
			for _, c := range cases {
				assert.False(t, seen[c.q], "%q listed twice", c.q)
				seen[c.q] = true
				out := engs[loc].Search(c.q, engine.Options{Limit: 10, Locale: loc})
				miss := sanityMiss(out.Results, c)
				switch {
				case miss == "":
					pass++
				case sanityStrict[loc+" "+c.q]:
					t.Errorf("%s %q (a case of issue 29): %s", loc, c.q, miss)
				default:
					t.Logf("%s %q: %s", loc, c.q, miss)
				}
				if sanityStrict[loc+" "+c.q] {
					strict++
				}
			}
			assert.GreaterOrEqual(t, float64(pass)/float64(len(cases)), sanityFloor, "%s: %d of %d lead", loc, pass, len(cases))
			for k := range sanityStrict {
				if strings.HasPrefix(k, loc+" ") {
					strict--
				}
			}
			assert.Zero(t, strict, "%s: every strict case is listed", loc)
		})
	}
}
