// Command prog exercises what `hostsim run` gives a plain Go js/wasm
// program: args, environment, stdin, stdout, real files, directories and
// the exit code.
package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
)

func main() {
	dir := os.Args[1]
	in, _ := io.ReadAll(os.Stdin)
	data, err := os.ReadFile(filepath.Join(dir, "input.txt"))
	if err != nil {
		fmt.Fprintln(os.Stderr, "read:", err)
		os.Exit(1)
	}
	if err := os.WriteFile(filepath.Join(dir, "output.txt"), append(data, in...), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "write:", err)
		os.Exit(1)
	}
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	_, missing := os.Stat(filepath.Join(dir, "missing"))
	wd, _ := os.Getwd()
	fmt.Printf("files=%v missing=%v env=%s cwd-set=%v\n", names, os.IsNotExist(missing), os.Getenv("GREETING"), wd != "")
	os.Exit(3)
}
