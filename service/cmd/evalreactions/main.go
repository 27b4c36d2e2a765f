// Command evalreactions measures POST /v1/suggest-reactions itself on
// reaction sets (JSON lines of {"text", "gold"}): the real service (packs,
// alias search per clause, the local embedding model in process, the
// ranking of engine/reactions), limit 10, printing recall@3, recall@5,
// hit@3, hit@5 and MRR@10 per file beside the set's label-prior baseline
// (the 5 most frequent gold emoji of that set, offered for every line)
// under both measures. Recall at k of a row is the share of its gold
// emoji among the first k results; hit at k counts a row when any of its
// gold emoji is among the first k. With one gold emoji (tweeteval) the
// two are equal; XED rows have three or more gold faces, of which recall
// wants all. Both are averaged over rows; MRR takes the first gold emoji
// found. Emoji compare without U+FE0F and skin tones. The locale is the
// file name's first part ("zh-cn" is zh). -alias leaves the embedding out
// (the over-limit answer).
//
//	go run ./service/cmd/evalreactions ../shared/eval/reactions/*.val.jsonl ../shared/eval/reactions/*.dev.jsonl
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/emojisearch/emojisearch/engine/evalkit"
	"github.com/emojisearch/emojisearch/engine/reactions"
	"github.com/emojisearch/emojisearch/service/internal/evalsetup"
	svc "github.com/emojisearch/emojisearch/service/reactions"
	"github.com/emojisearch/emojisearch/service/search"
)

func main() {
	packs := flag.String("packs", "packs/dist/"+evalkit.PackVersion, "folder of the pack version")
	modelPath := flag.String("model", "packs/models/glove-cldr.100.embm", "local embedding model file")
	aliasOnly := flag.Bool("alias", false, "no embedding (as over the limit)")
	maxRows := flag.Int("n", 0, "at most this many rows per file (0: all)")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: evalreactions [-packs dir] [-model file] [-alias] [-n rows] file.jsonl...")
		os.Exit(2)
	}
	s, err := service(*packs, *modelPath, *aliasOnly)
	if err != nil {
		fmt.Fprintln(os.Stderr, "evalreactions:", err)
		os.Exit(1)
	}
	fmt.Printf("%-20s %6s %8s %8s %8s %8s %8s %9s %9s %8s\n", "file", "n", "recall@3", "recall@5", "hit@3", "hit@5", "mrr@10",
		"prior-r@5", "prior-h@5", "p50(ms)")
	for _, path := range flag.Args() {
		if err := evalFile(s, path, *maxRows); err != nil {
			fmt.Fprintln(os.Stderr, "evalreactions:", err)
			os.Exit(1)
		}
	}
}

type row struct {
	Text string   `json:"text"`
	Gold []string `json:"gold"`
}

func evalFile(s *svc.Service, path string, maxRows int) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	var rows []row
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() && (maxRows == 0 || len(rows) < maxRows) {
		var r row
		if json.Unmarshal(sc.Bytes(), &r) == nil && r.Text != "" && len(r.Gold) > 0 {
			rows = append(rows, r)
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	locale := strings.SplitN(strings.SplitN(filepath.Base(path), ".", 2)[0], "-", 2)[0]
	prior := labelPrior(rows)
	var r3, r5, h3, h5, mrr, p5, ph5 float64
	times := make([]time.Duration, 0, len(rows))
	for _, r := range rows {
		begin := time.Now()
		got := ask(s, r.Text, locale)
		times = append(times, time.Since(begin))
		gold := map[string]bool{}
		for _, g := range r.Gold {
			gold[reactions.Key(g)] = true
		}
		g := float64(len(gold))
		first := -1
		for i, e := range got {
			if !gold[reactions.Key(e)] {
				continue
			}
			if i < 3 {
				r3 += 1 / g
			}
			if i < 5 {
				r5 += 1 / g
			}
			if first < 0 {
				first = i
				mrr += 1 / float64(i+1)
			}
		}
		if first >= 0 && first < 3 {
			h3++
		}
		if first >= 0 && first < 5 {
			h5++
		}
		hit := false
		for _, e := range prior {
			if gold[e] {
				p5 += 1 / g
				hit = true
			}
		}
		if hit {
			ph5++
		}
	}
	n := float64(len(rows))
	slices.Sort(times)
	fmt.Printf("%-20s %6d %8.3f %8.3f %8.3f %8.3f %8.3f %9.3f %9.3f %8.2f\n", strings.TrimSuffix(filepath.Base(path), ".jsonl"),
		len(rows), r3/n, r5/n, h3/n, h5/n, mrr/n, p5/n, ph5/n, float64(times[len(times)/2].Microseconds())/1000)
	return nil
}

// labelPrior is the baseline: the set's 5 most frequent gold emoji.
func labelPrior(rows []row) []string {
	count := map[string]int{}
	for _, r := range rows {
		for _, g := range r.Gold {
			count[reactions.Key(g)]++
		}
	}
	keys := make([]string, 0, len(count))
	for k := range count {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int {
		if count[a] != count[b] {
			return count[b] - count[a]
		}
		return strings.Compare(a, b)
	})
	return keys[:min(5, len(keys))]
}

func ask(s *svc.Service, text, locale string) []string {
	body, _ := json.Marshal(map[string]any{"text": text, "locale": locale, "limit": 10})
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "http://localhost/v1/suggest-reactions", bytes.NewReader(body)))
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

// service builds the route over the pack folder with the local model.
func service(dir, modelPath string, aliasOnly bool) (*svc.Service, error) {
	if aliasOnly {
		modelPath = ""
	}
	l, err := evalsetup.Load(dir, modelPath)
	if err != nil {
		return nil, err
	}
	cfg := svc.Config{PackVersion: l.PackVersion, Packs: l.Packs}
	if l.Tier != nil {
		cfg.Model, cfg.Calibration, cfg.Meaning = l.Model.Name, l.Model.Calibration, svc.TierMeaning(l.Tier)
	}
	return svc.New(cfg), nil
}
