//go:build js && wasm

package main

import (
	"time"

	"github.com/emojisearch/emojisearch/service/customemoji"
	"github.com/emojisearch/emojisearch/service/meaning"
	"github.com/emojisearch/emojisearch/service/metering"
	"github.com/emojisearch/emojisearch/service/reactions"
	"github.com/emojisearch/emojisearch/service/search"
	"github.com/emojisearch/emojisearch/worker/internal/jsbridge"
)

// newReactions wires POST /v1/suggest-reactions over the packs and the
// meaning tier /v1/search uses (tier nil: no embedding backend bound).
func newReactions(packVersion, model string, packs *search.Packs, tier *meaning.Tier, meter *metering.Meter, custom *customemoji.Index) *reactions.Service {
	cfg := reactions.Config{PackVersion: packVersion, Model: model, Packs: packs, Background: jsbridge.WaitUntil,
		Now: func() time.Time { return time.Now().Add(clockOffset()) }}
	if tier != nil {
		cfg.Meaning = reactions.TierMeaning(tier)
		if m, err := meaning.Lookup(model); err == nil {
			cfg.Calibration = m.Calibration
		}
	}
	if meter != nil {
		cfg.Meter = meter
	}
	if custom != nil {
		cfg.Custom = custom
	}
	return reactions.New(cfg)
}
