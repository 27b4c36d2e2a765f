package index

import (
	"slices"
	"strings"

	"github.com/emojisearch/emojisearch/engine/internal/textnorm"
)

// Words returns the word lists of the ranking rules (stop.go, their one
// source) normalized like queries, for the pack build to write into the
// English core pack, where the JavaScript client reads them: stop words
// and content-word exceptions per locale in list order, gender and flag
// words sorted.
func Words() (stop, notStopWords map[string][]string, gender, flag []string) {
	norm := func(words string) []string {
		var out []string
		for _, w := range strings.Fields(words) {
			out = append(out, textnorm.Normalize(w, 0))
		}
		return out
	}
	stop, notStopWords = map[string][]string{}, map[string][]string{}
	for loc, words := range stopWords {
		stop[loc] = norm(words)
	}
	for loc, words := range notStop {
		notStopWords[loc] = norm(words)
	}
	keys := func(set map[string]bool) []string {
		out := make([]string, 0, len(set))
		for w := range set {
			out = append(out, w)
		}
		slices.Sort(out)
		return out
	}
	return stop, notStopWords, keys(genderWords), keys(flagWords)
}
