package engine

import (
	"strings"

	"github.com/emojisearch/emojisearch/engine/internal/index"
	"github.com/emojisearch/emojisearch/engine/packfmt"
)

// RankingWords returns the word lists of the ranking rules (function words
// per locale, gender and flag words) and the two-person emoji whose tones
// fold into another (multiPersonBase) as the pack build writes them into
// the English core pack (packs/FORMAT.md "words"). The engine's own lists
// are their source, so the packs, the JavaScript client that reads them and
// this engine share one list.
func RankingWords() *packfmt.Words {
	stop, notStop, gender, flag := index.Words()
	couples := map[string]string{}
	for from, to := range multiPersonBase {
		k, _ := emojiOfHex(from)
		v, _ := emojiOfHex(to)
		couples[strings.ReplaceAll(k, "\uFE0F", "")] = v
	}
	return &packfmt.Words{Stop: stop, NotStop: notStop, Gender: gender, Flag: flag, Couples: couples}
}
