//go:build !(js && wasm)

// Native twin of the worker: the same composed app (service/app) over
// net/http, with the checkout's assets and, when given, the local
// embedding model; no database, KV or bucket, so the routes that need them
// are left out. The real local runtime is hostsim, which runs the wasm
// module itself.
package main

import (
	"flag"
	"log"
	"net/http"

	"github.com/emojisearch/emojisearch/service/app"
	"github.com/emojisearch/emojisearch/service/app/local"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8788", "listen address")
	root := flag.String("root", ".", "the checkout whose assets and packs are served")
	modelPath := flag.String("model", "", "local embedding model file (empty: alias tier only)")
	flag.Parse()
	p := app.Platform{Assets: local.Assets(local.RepoMounts(*root)), Log: log.Printf}
	if *modelPath != "" {
		embedder, name, err := local.Model(*modelPath)
		if err != nil {
			log.Fatal(err)
		}
		p.Embedder, p.Vars = embedder, local.Vars{"EMBED_MODEL": name}.Get
	}
	log.Printf("native worker (no bindings) on http://%s", *addr)
	log.Fatal(http.ListenAndServe(*addr, app.New(p).Handler))
}
