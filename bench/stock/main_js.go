//go:build js && wasm

// Command stock serves the service's handler through syumai/workers' own
// entry, which starts a new Go instance for every request. It exists only
// as the baseline of the per-request overhead benchmark (bench/run.sh,
// BENCHMARKS.md); the deployed Worker is ./worker on our long-lived entry.
package main

import (
	"github.com/syumai/workers"
	"github.com/syumai/workers/cloudflare"

	"github.com/emojisearch/emojisearch/service/api"
)

func main() {
	cfg := api.Config{
		PackVersion: cloudflare.Getenv("PACK_VERSION"),
		Model:       cloudflare.Getenv("EMBED_MODEL"),
		Semantic:    !cloudflare.GetBinding("AI").IsUndefined() || cloudflare.Getenv("EMBED_URL") != "",
	}
	workers.Serve(api.New(cfg))
}
