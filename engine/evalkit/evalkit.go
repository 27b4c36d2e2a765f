// Package evalkit holds what the evaluation command and the benchmarks share:
// loading an engine for a locale from a pack folder, the metrics, and the
// typing trace. It is not used by the service.
package evalkit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"unicode/utf8"

	"github.com/emojisearch/emojisearch/engine"
	"github.com/emojisearch/emojisearch/engine/packfmt"
)

// PackVersion is the committed pack version the tools read by default.
const PackVersion = packfmt.DefaultVersion

// Row is one evaluation query.
type Row struct {
	Q    string   `json:"q"`
	Gold []string `json:"gold"`
}

// Metrics of one set.
type Metrics struct {
	N                int
	Hit1, Hit10, MRR float64
	Hit3             float64 // a gold emoji in the top 3 (the smoke sets' floor)
	NoResult         float64
	Typing           float64 // share of prefixes (>= 3 characters) with a gold emoji in the top 10
	TypingAll        float64 // share of queries whose every such prefix keeps a gold emoji in the top 10
	// TypingByLen is Typing by prefix length in characters: 3, 4, 5, 6, 7
	// and 8 or more (where the first letters typed stand apart).
	TypingByLen [6]float64
}

// LoadEngineLocales loads the binary indexes of the locales (index.<locale>.bin,
// core and extension packs indexed by the pack build, and the locale's part
// indexes index.<locale>.<part>.bin: index.en.related.bin, the English
// related words, which the service adds on first use), English first; a
// locale without one is loaded from its JSON packs.
func LoadEngineLocales(dir string, locales ...string) (*engine.Engine, error) {
	var files [][]byte
	for _, loc := range locales {
		names := []string{"index." + loc + ".bin"}
		if _, err := os.Stat(filepath.Join(dir, names[0])); err != nil {
			names = packfmt.PackFiles(os.DirFS(dir), loc)
		} else {
			parts, err := filepath.Glob(filepath.Join(dir, "index."+loc+".*.bin"))
			if err != nil {
				return nil, err
			}
			for _, p := range parts { // sorted
				if filepath.Base(p) == packfmt.CoreIndexFile {
					continue // the JS client's index of the core pack alone: a main index, not a part
				}
				names = append(names, filepath.Base(p))
			}
		}
		for _, n := range names {
			b, err := os.ReadFile(filepath.Join(dir, n))
			if err != nil {
				return nil, err
			}
			files = append(files, b)
		}
	}
	return engine.Load(engine.NewConfig(), files...)
}

// ReadSet reads a JSON-lines search set.
func ReadSet(path string) ([]Row, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var rows []Row
	for _, line := range bytes.Split(b, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var r Row
		if err := json.Unmarshal(line, &r); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		rows = append(rows, r)
	}
	return rows, nil
}

// LoadEngine loads English plus the locale (LoadEngineLocales).
func LoadEngine(dir, locale string) (*engine.Engine, error) {
	if locale == "en" || locale == "" {
		return LoadEngineLocales(dir, "en")
	}
	return LoadEngineLocales(dir, "en", locale)
}

// key compares emoji without FE0F and skin tones.
func key(s string) string {
	out := make([]rune, 0, 8)
	for _, r := range s {
		if r == 0xFE0F || (r >= 0x1F3FB && r <= 0x1F3FF) {
			continue
		}
		out = append(out, r)
	}
	return string(out)
}

// rank is the 1-based position of the first gold emoji in results, 0 if absent.
func rank(results []engine.Result, gold map[string]bool) int {
	for i, r := range results {
		if gold[key(r.Emoji)] {
			return i + 1
		}
	}
	return 0
}

// Evaluate runs every row (limit 10, no prefix) and, for the typing variant,
// every prefix of at least 3 characters with prefix matching on.
func Evaluate(eng *engine.Engine, rows []Row, opts engine.Options) Metrics {
	var m Metrics
	var prefixes, prefixHits, allOK int
	var byLen, hitsByLen [6]int
	for _, row := range rows {
		gold := map[string]bool{}
		for _, g := range row.Gold {
			gold[key(g)] = true
		}
		out := eng.Search(row.Q, opts)
		m.N++
		if len(out.Results) == 0 {
			m.NoResult++
		}
		if r := rank(out.Results, gold); r > 0 {
			if r == 1 {
				m.Hit1++
			}
			if r <= 3 {
				m.Hit3++
			}
			m.Hit10++
			m.MRR += 1 / float64(r)
		}
		ok := true
		typing := opts
		typing.Prefix = true
		for _, p := range Prefixes(row.Q, 3) {
			prefixes++
			l := min(utf8.RuneCountInString(p), 8) - 3
			byLen[l]++
			if rank(eng.Search(p, typing).Results, gold) > 0 {
				prefixHits++
				hitsByLen[l]++
			} else {
				ok = false
			}
		}
		if ok {
			allOK++
		}
	}
	n := float64(max(m.N, 1))
	m.Hit1, m.Hit3, m.Hit10, m.MRR, m.NoResult = m.Hit1/n, m.Hit3/n, m.Hit10/n, m.MRR/n, m.NoResult/n
	m.Typing = float64(prefixHits) / float64(max(prefixes, 1))
	m.TypingAll = float64(allOK) / n
	for l := range byLen {
		m.TypingByLen[l] = float64(hitsByLen[l]) / float64(max(byLen[l], 1))
	}
	return m
}

// Score measures any ranking (the fused service search, for one) on the
// rows: hit@1, hit@10, MRR@10 and the no-result share; search returns
// emoji best first.
func Score(rows []Row, search func(q string) []string) Metrics {
	var m Metrics
	for _, row := range rows {
		gold := map[string]bool{}
		for _, g := range row.Gold {
			gold[key(g)] = true
		}
		got := search(row.Q)
		m.N++
		if len(got) == 0 {
			m.NoResult++
		}
		for i, e := range got[:min(len(got), 10)] {
			if gold[key(e)] {
				if i == 0 {
					m.Hit1++
				}
				if i < 3 {
					m.Hit3++
				}
				m.Hit10++
				m.MRR += 1 / float64(i+1)
				break
			}
		}
	}
	n := float64(max(m.N, 1))
	m.Hit1, m.Hit3, m.Hit10, m.MRR, m.NoResult = m.Hit1/n, m.Hit3/n, m.Hit10/n, m.MRR/n, m.NoResult/n
	return m
}

// Prefixes lists the prefixes of q of at least minLen characters, q included.
func Prefixes(q string, minLen int) []string {
	var out []string
	n := 0
	for i := range q {
		if n >= minLen {
			out = append(out, q[:i])
		}
		n++
	}
	if n >= minLen && utf8.ValidString(q) {
		out = append(out, q)
	}
	return out
}

// DefaultSearchOptions are the options of the trace: limit 24, prefix on.
func DefaultSearchOptions() engine.Options { return engine.DefaultOptions() }
