// Command evalhybrid measures /v1/search itself on search sets (JSON lines
// of {"q", "gold"}): the real service (packs, meaning tier, fusion) with the
// local embedding model in process, limit 10, once with mode=hybrid and once
// alias-only (no meaning tier), printing hit@1, hit@10, MRR@10 and the
// no-result share side by side. The locale is the file name's first part.
//
//	go run ./service/cmd/evalhybrid ../shared/eval/search/*.jsonl
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/emojisearch/emojisearch/engine/evalkit"
	"github.com/emojisearch/emojisearch/service/internal/evalsetup"
	"github.com/emojisearch/emojisearch/service/meaning"
	"github.com/emojisearch/emojisearch/service/search"
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
			svc  *search.Service
		}{{"alias", alias}, {"hybrid", hybrid}} {
			m := evalkit.Score(rows, func(q string) []string { return ask(s.svc, q, loc) })
			fmt.Printf("%-24s %6d %-7s %7.3f %7.3f %7.3f %7.3f %9.3f\n", filepath.Base(path), m.N, s.name, m.Hit1, m.Hit3, m.Hit10, m.MRR, m.NoResult)
		}
	}
	return nil
}

// services builds the service twice over the same packs: with the meaning
// tier (hybrid) and without (alias only).
func services(dir, modelPath string) (hybrid, alias *search.Service, err error) {
	l, err := evalsetup.Load(dir, modelPath)
	if err != nil {
		return nil, nil, err
	}
	cfg := search.Config{PackVersion: l.PackVersion, Model: l.Model.Name, Packs: l.Packs}
	alias = search.New(cfg)
	cfg.Meaning, cfg.Fuse = l.Tier, meaning.Fuser(l.Model.Calibration)
	return search.New(cfg), alias, nil
}

// ask sends one GET /v1/search and returns the emoji, best first.
func ask(s *search.Service, q, locale string) []string {
	v := url.Values{"q": {q}, "locale": {locale}, "limit": {"10"}}
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "http://localhost/v1/search?"+v.Encode(), nil))
	if rec.Code != http.StatusOK {
		return nil
	}
	var res search.Response
	if json.Unmarshal(rec.Body.Bytes(), &res) != nil {
		return nil
	}
	out := make([]string, len(res.Results))
	for i, r := range res.Results {
		out[i] = r.Emoji
	}
	return out
}
