// Command testreport summarises `go test -json` on stdin: a line per
// package, failed tests' output, then the slowest tests; it exits 1 when
// anything failed. With -q it prints only the slowest tests (test.sh's
// summary over the JSON of all its go test runs).
//
//	go test -json ./... | go run ./internal/testreport/cmd/testreport -slowest 10
package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/emojisearch/emojisearch/internal/testreport"
)

func main() {
	n := flag.Int("slowest", 10, "how many of the slowest tests to list (0: none)")
	quiet := flag.Bool("q", false, "print only the slowest tests, and exit 0")
	flag.Parse()
	var w io.Writer = os.Stdout
	if *quiet {
		w = io.Discard
	}
	rep, err := testreport.Read(os.Stdin, w)
	if err != nil {
		fmt.Fprintln(os.Stderr, "testreport:", err)
		os.Exit(1)
	}
	if *n > 0 {
		rep.WriteSlowest(os.Stdout, *n)
	}
	if rep.Failed && !*quiet {
		os.Exit(1)
	}
}
