package meaning

import (
	"github.com/emojisearch/emojisearch/engine"
	"github.com/emojisearch/emojisearch/engine/fusion"
	"github.com/emojisearch/emojisearch/service/search"
)

// Fuser is spec 3's fuse with the model's calibration, as /v1/search's
// hybrid mode uses it.
func Fuser(cal fusion.Calibration) search.Fuser {
	return func(alias engine.Output, semantic []search.Hit, limit int) []search.Item {
		fused := fusion.Fuse(alias.Results, alias.Confidence, semantic, limit, cal)
		out := make([]search.Item, len(fused))
		for i, it := range fused {
			out[i] = search.Item{Emoji: it.Emoji, ID: it.ID, Score: it.Score, Source: it.Source}
		}
		return out
	}
}
