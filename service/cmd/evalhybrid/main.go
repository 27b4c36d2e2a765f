// Command evalhybrid measures /v1/search itself on search sets (JSON lines
// of {"q", "gold"}): the real service (packs, meaning tier, fusion) with the
// local embedding model in process, limit 10, once with mode=hybrid and once
// alias-only (no meaning tier), printing hit@1, hit@10, MRR@10 and the
// no-result share side by side. The locale is the file name's first part.
//
//	go run ./service/cmd/evalhybrid ../shared/eval/search/*.jsonl
package main

import (
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/emojisearch/emojisearch/engine/evalkit"
	"github.com/emojisearch/emojisearch/service/app"
	"github.com/emojisearch/emojisearch/service/app/local"
)

func main() {
	packs := flag.String("packs", "packs/dist/"+evalkit.PackVersion, "folder of the pack version")
	modelPath := flag.String("model", "packs/models/glove-cldr.100.embm", "local embedding model file")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: evalhybrid [-packs dir] [-model file] file.jsonl...")
		os.Exit(2)
	}
	if err := run(*packs, *modelPath, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "evalhybrid:", err)
		os.Exit(1)
	}
}

func run(dir, modelPath string, files []string) error {
	hybrid, alias, err := services(dir, modelPath)
	if err != nil {
		return err
	}
	fmt.Printf("%-24s %6s %-7s %7s %7s %7s %7s %9s\n", "file", "n", "tier", "hit@1", "hit@3", "hit@10", "mrr@10", "noresult")
	for _, path := range files {
		rows, err := evalkit.ReadSet(path)
		if err != nil {
			return err
		}
		loc := strings.SplitN(filepath.Base(path), ".", 2)[0]
		for _, s := range []struct {
			name string
			svc  http.Handler
		}{{"alias", alias}, {"hybrid", hybrid}} {
			m := evalkit.Score(rows, func(q string) []string { return ask(s.svc, q, loc) })
			fmt.Printf("%-24s %6d %-7s %7.3f %7.3f %7.3f %7.3f %9.3f\n", filepath.Base(path), m.N, s.name, m.Hit1, m.Hit3, m.Hit10, m.MRR, m.NoResult)
		}
	}
	return nil
}

// services builds the app twice over the same packs, as the Worker
// builds it: with the local model as the embedding backend (hybrid) and
// without (alias only).
func services(dir, modelPath string) (hybrid, alias http.Handler, err error) {
	embedder, name, err := local.Model(modelPath)
	if err != nil {
		return nil, nil, err
	}
	version := filepath.Base(dir)
	p := app.Platform{
		Assets: local.Assets(local.PackMounts(dir, version)),
		Vars:   local.Vars{"PACK_VERSION": version, "EMBED_MODEL": name}.Get,
		Log:    func(string, ...any) {},
	}
	alias = app.New(p).Handler
	p.Embedder = embedder
	return app.New(p).Handler, alias, nil
}

// ask sends one GET /v1/search and returns the emoji, best first.
func ask(h http.Handler, q, locale string) []string {
	v := url.Values{"q": {q}, "locale": {locale}, "limit": {"10"}}
	return local.Emoji(h, httptest.NewRequest(http.MethodGet, "http://localhost/v1/search?"+v.Encode(), nil))
}
