package fusion_test

import (
	"fmt"

	"github.com/emojisearch/emojisearch/engine"
	"github.com/emojisearch/emojisearch/engine/fusion"
)

func ExampleFuse() {
	// "party time": the dictionary is unsure, the meaning tier is sure.
	alias := []engine.Result{{Emoji: "⌚", ID: "231A", Score: 0.45, Source: "alias", Label: "watch", Match: "time", Field: "keyword"}}
	hits := []fusion.Hit{
		{ID: "1F389", Emoji: "🎉", Cosine: 0.62},
		{ID: "1F1F5-1F1F7", Emoji: "🇵🇷", Cosine: 0.50}, // a flag below the ceiling: last
		{ID: "1F973", Emoji: "🥳", Cosine: 0.60},
	}
	if fusion.ShouldUseSemantic(0.45, 2) {
		for _, it := range fusion.Fuse(alias, 0.45, hits, 24, fusion.DefaultSemanticCalibration) {
			fmt.Println(it.Emoji, it.Source, it.Score)
		}
	}
	// Output:
	// 🎉 semantic 0.62
	// 🥳 semantic 0.6
	// ⌚ alias 0.45
	// 🇵🇷 semantic 0.5
}
