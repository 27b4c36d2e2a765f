// Command evalsearch measures the alias tier on search sets (JSON lines of
// {"q": query, "gold": [emoji...]}): hit@1, hit@10, MRR@10 and the share of
// queries without any result per file, and the typing variant (every prefix
// of at least 3 characters should keep a gold emoji in the top 10).
// Emoji are compared without U+FE0F and skin tones. The locale is the file
// name's first dot-separated part; the engine loads the English packs (with
// the related words, index.en.related.bin, as the service does) and that
// locale's core and extension packs. With -bylen, a second line per file
// gives the typing share by prefix length (3, 4, 5, 6, 7, 8+ characters).
//
//	go run ./engine/cmd/evalsearch ../shared/eval/search/*.jsonl
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/emojisearch/emojisearch/engine"
	"github.com/emojisearch/emojisearch/engine/evalkit"
)

func main() {
	packs := flag.String("packs", "packs/dist/"+evalkit.PackVersion, "folder of the pack version")
	byLen := flag.Bool("bylen", false, "also print the typing share by prefix length")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: evalsearch [-packs dir] [-bylen] file.jsonl...")
		os.Exit(2)
	}
	fmt.Printf("%-24s %6s %7s %7s %7s %7s %9s %8s %8s\n", "file", "n", "hit@1", "hit@3", "hit@10", "mrr@10", "noresult", "typing", "typeAll")
	for _, path := range flag.Args() {
		if err := evalFile(*packs, path, *byLen); err != nil {
			fmt.Fprintln(os.Stderr, "evalsearch:", err)
			os.Exit(1)
		}
	}
}

func evalFile(packDir, path string, byLen bool) error {
	loc := strings.SplitN(filepath.Base(path), ".", 2)[0]
	eng, err := evalkit.LoadEngine(packDir, loc)
	if err != nil {
		return err
	}
	rows, err := readSet(path)
	if err != nil {
		return err
	}
	m := evalkit.Evaluate(eng, rows, engine.Options{Limit: 10, Locale: loc, Prefix: false})
	fmt.Printf("%-24s %6d %7.3f %7.3f %7.3f %7.3f %9.3f %8.3f %8.3f\n", filepath.Base(path), m.N, m.Hit1, m.Hit3, m.Hit10, m.MRR, m.NoResult, m.Typing, m.TypingAll)
	if byLen {
		t := m.TypingByLen
		fmt.Printf("%-24s typing by prefix length: 3 %.3f  4 %.3f  5 %.3f  6 %.3f  7 %.3f  8+ %.3f\n", "", t[0], t[1], t[2], t[3], t[4], t[5])
	}
	return nil
}

func readSet(path string) ([]evalkit.Row, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var rows []evalkit.Row
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var r evalkit.Row
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		rows = append(rows, r)
	}
	return rows, sc.Err()
}
