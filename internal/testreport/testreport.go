// Package testreport reads `go test -json` and writes what a person wants
// from a long suite: one line per package, the output of every failed
// test, and the slowest tests, so the suite's time can be watched (CI
// prints the ten slowest). test.sh pipes its go test runs through
// internal/testreport/cmd/testreport.
package testreport

import (
	"bufio"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
)

// event is one line of `go test -json` (cmd/test2json).
type event struct {
	Action  string
	Package string
	Test    string
	Elapsed float64
	Output  string
}

// Timing is one finished top-level test.
type Timing struct {
	Package, Test string
	Elapsed       time.Duration
}

// Report is what Read gathered.
type Report struct {
	Failed  bool     // a test or a package failed (or a build did)
	Slowest []Timing // top-level tests, slowest first
}

// Read copies a summary of the events in r to w as they arrive: a line
// per package, the whole output of failed tests and packages, and the
// output go test prints outside any package (build errors). Subtests
// count within their test.
func Read(r io.Reader, w io.Writer) (Report, error) {
	var rep Report
	output := map[[2]string][]string{} // package, test -> lines
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var e event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil || e.Action == "" {
			fmt.Fprintln(w, sc.Text()) // not an event: go test's own words
			continue
		}
		key := [2]string{e.Package, e.Test}
		switch e.Action {
		case "build-output": // a package that does not compile (go 1.24+)
			fmt.Fprint(w, e.Output)
		case "build-fail":
			rep.Failed = true
		case "output":
			output[key] = append(output[key], e.Output)
		case "pass", "skip":
			if e.Test == "" {
				fmt.Fprintf(w, "ok   %s %.1fs\n", e.Package, e.Elapsed)
			} else if !strings.Contains(e.Test, "/") {
				rep.Slowest = append(rep.Slowest, Timing{e.Package, e.Test, seconds(e.Elapsed)})
			}
			delete(output, key)
		case "fail":
			rep.Failed = true
			fmt.Fprint(w, strings.Join(output[key], ""))
			if e.Test == "" {
				fmt.Fprintf(w, "FAIL %s %.1fs\n", e.Package, e.Elapsed)
			} else if !strings.Contains(e.Test, "/") {
				rep.Slowest = append(rep.Slowest, Timing{e.Package, e.Test, seconds(e.Elapsed)})
			}
			delete(output, key)
		}
	}
	slices.SortStableFunc(rep.Slowest, func(a, b Timing) int { return cmp.Compare(b.Elapsed, a.Elapsed) })
	return rep, sc.Err()
}

func seconds(s float64) time.Duration {
	return time.Duration(s * float64(time.Second)).Round(10 * time.Millisecond)
}

// WriteSlowest writes the n slowest tests.
func (r Report) WriteSlowest(w io.Writer, n int) {
	fmt.Fprintf(w, "slowest %d tests:\n", min(n, len(r.Slowest)))
	for _, t := range r.Slowest[:min(n, len(r.Slowest))] {
		fmt.Fprintf(w, "%8.1fs  %s %s\n", t.Elapsed.Seconds(), t.Package, t.Test)
	}
}
