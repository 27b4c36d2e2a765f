//go:build !(js && wasm)

// Native twin of the worker: serves the same service over net/http with no
// platform bindings, for quick runs of the routes that need none. The real
// local runtime is hostsim, which runs the wasm module itself.
package main

import (
	"flag"
	"log"
	"net/http"

	"github.com/emojisearch/emojisearch/service/api"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8788", "listen address")
	pack := flag.String("pack-version", "dev", "pack version reported by /v1/health")
	model := flag.String("model", "none@0", "embedding model reported by /v1/health")
	flag.Parse()
	svc := api.New(api.Config{PackVersion: *pack, Model: *model})
	log.Printf("native worker (no bindings) on http://%s", *addr)
	log.Fatal(http.ListenAndServe(*addr, svc))
}
