//go:build js && wasm

package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/emojisearch/emojisearch/service/classify"
	"github.com/emojisearch/emojisearch/service/meaning"
	"github.com/emojisearch/emojisearch/service/metering"
	"github.com/emojisearch/emojisearch/service/reactions"
	"github.com/emojisearch/emojisearch/service/search"
	"github.com/emojisearch/emojisearch/worker/internal/cf/ai"
	"github.com/emojisearch/emojisearch/worker/internal/cf/kv"
	"github.com/emojisearch/emojisearch/worker/internal/jsbridge"
	"github.com/emojisearch/emojisearch/worker/internal/jsutil"
)

// newClassify wires POST /v1/classify-image: the vision model through the
// Workers AI REST endpoint when EMBED_URL is set (local workerd has no
// Workers AI), else the AI binding; the label cache on the KV binding; the
// caption embedded by the meaning tier /v1/search uses (tier nil: none).
func newClassify(model, url, token string, packs *search.Packs, tier *meaning.Tier, meter *metering.Meter) *classify.Service {
	cfg := classify.Config{Packs: packs, Background: jsbridge.WaitUntil}
	switch client, err := ai.Open("AI"); {
	case url != "":
		cfg.Vision = classify.RESTVision{BaseURL: url, Token: token, Client: fetchDoer{}}
	case err == nil:
		cfg.Vision = classify.BindingVision{AI: client}
	case !errors.Is(err, jsutil.ErrUnbound):
		fmt.Println("worker: vision model unavailable:", err)
	}
	if cfg.Vision != nil {
		cfg.Vision = classify.GuardedVision{Vision: cfg.Vision, Breaker: newBreaker("vision", classify.VisionDeadline)}
	}
	if tier != nil {
		cfg.Meaning = reactions.TierMeaning(tier)
		if m, err := meaning.Lookup(model); err == nil {
			cfg.Calibration = m.Calibration
		}
	}
	if ns, err := kv.Open("KV"); err == nil {
		cfg.Cache = labelCache{ns}
	} else {
		fmt.Println("worker: label cache unavailable:", err)
	}
	if meter != nil {
		cfg.Meter = meter
	}
	return classify.New(cfg)
}

// labelCache is the label cache on a KV namespace; entries expire by TTL.
type labelCache struct{ ns *kv.Namespace }

func (c labelCache) Get(ctx context.Context, key string) ([]byte, bool, error) {
	return c.ns.Get(ctx, key)
}

func (c labelCache) Put(ctx context.Context, key string, value []byte, ttl time.Duration) error {
	return c.ns.Put(ctx, key, value, kv.PutOptions{ExpirationTTL: int64(ttl.Seconds())})
}
