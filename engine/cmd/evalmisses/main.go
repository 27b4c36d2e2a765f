// Command evalmisses is the error analysis of the alias tier on search sets
// (JSON lines of {"q", "gold"}): every query in one class by where its gold
// stands (limit 24, prefix off) or, when absent, by what answered instead;
// then the first three characters of every query of at least three (prefix
// on): a hit in the top 10, a miss of vocabulary (the full query misses
// too), of completion order (the gold among the first 200 completions) or
// of reach (not among them). It prints a Markdown table, one column per
// file, as BENCHMARKS.md shows it. The locale is the file name's first
// dot-separated part, as in evalsearch.
//
//	go run ./engine/cmd/evalmisses ../shared/eval/search/*.jsonl
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/emojisearch/emojisearch/engine/evalkit"
)

func main() {
	packs := flag.String("packs", "packs/dist/"+evalkit.PackVersion, "folder of the pack version")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: evalmisses [-packs dir] file.jsonl...")
		os.Exit(2)
	}
	var names []string
	var reports []evalkit.MissReport
	for _, path := range flag.Args() {
		loc := strings.SplitN(filepath.Base(path), ".", 2)[0]
		eng, err := evalkit.LoadEngine(*packs, loc)
		if err == nil {
			var rows []evalkit.Row
			if rows, err = evalkit.ReadSet(path); err == nil {
				names = append(names, strings.TrimSuffix(filepath.Base(path), ".jsonl"))
				reports = append(reports, evalkit.Misses(eng, rows, loc))
			}
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "evalmisses:", err)
			os.Exit(1)
		}
	}
	printTable(os.Stdout, names, reports)
}

// queryRows and typingRows name the classes, in their order.
var (
	queryRows = [...]string{
		evalkit.GoldFirst:        "gold first",
		evalkit.GoldTop3:         "gold at 2–3 (order)",
		evalkit.GoldTop10:        "gold at 4–10 (order)",
		evalkit.GoldTop24:        "gold at 11–24 (ranked low)",
		evalkit.NoResult:         "no result at all",
		evalkit.AbsentTypo:       "gold absent, a typo match first (the word is unknown)",
		evalkit.AbsentRelated:    "gold absent, related words only",
		evalkit.AbsentDictionary: "gold absent, the word names other emoji (dictionary)",
		evalkit.AbsentEditorial:  "gold absent, the word names other emoji (editorial)",
	}
	typingRows = [...]string{
		evalkit.TypingHit:          "**first 3 characters:** gold in the top 10",
		evalkit.TypingFullMiss:     "miss: the full query misses too (vocabulary)",
		evalkit.TypingBelow10:      "miss: the gold completes, below place 10 (order)",
		evalkit.TypingNotCompleted: "miss: not among the first 200 completions",
	}
)

func printTable(w io.Writer, names []string, reports []evalkit.MissReport) {
	fmt.Fprint(w, "| class |")
	for i, n := range names {
		fmt.Fprintf(w, " %s (%d; %d of 3+ characters) |", n, reports[i].N, reports[i].TypingN)
	}
	fmt.Fprint(w, "\n|---|")
	for range names {
		fmt.Fprint(w, "---|")
	}
	fmt.Fprintln(w)
	row := func(label string, count func(evalkit.MissReport) (int, int)) {
		fmt.Fprintf(w, "| %s |", label)
		for _, r := range reports {
			n, of := count(r)
			fmt.Fprintf(w, " %d (%.1f %%) |", n, 100*float64(n)/float64(max(of, 1)))
		}
		fmt.Fprintln(w)
	}
	for c, label := range queryRows {
		row(label, func(r evalkit.MissReport) (int, int) { return r.Query[c], r.N })
	}
	for c, label := range typingRows {
		row(label, func(r evalkit.MissReport) (int, int) { return r.Typing[c], r.TypingN })
	}
}
