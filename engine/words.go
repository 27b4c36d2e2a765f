package engine

import (
	"github.com/emojisearch/emojisearch/engine/internal/index"
	"github.com/emojisearch/emojisearch/engine/packfmt"
)

// RankingWords returns the word lists of the ranking rules (function words
// per locale, gender and flag words) as the pack build writes them into the
// English core pack (packs/FORMAT.md "words"). The engine's own lists are
// their source, so the packs, the JavaScript client that reads them and
// this engine share one list.
func RankingWords() *packfmt.Words {
	stop, notStop, gender, flag := index.Words()
	return &packfmt.Words{Stop: stop, NotStop: notStop, Gender: gender, Flag: flag}
}
