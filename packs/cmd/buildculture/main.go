// Command buildculture builds the culture files of the pack version
// (packs/FORMAT.md, "Culture files") from packs/culture/data/<locale>.json
// into packs/dist/<packVersion>/culture/: culture.<locale>.json and
// index.json. The pack version is read from packs/dist/*/manifest.json.
//
//	go run ./packs/cmd/buildculture
//	git diff --stat packs/dist   # empty: the build is deterministic
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/emojisearch/emojisearch/packs/culture"
)

func main() {
	data := flag.String("data", "packs/culture/data", "folder of the editorial sources <locale>.json")
	dist := flag.String("dist", "packs/dist", "folder of the pack versions")
	version := flag.String("version", "", "pack version (default: the one manifest under -dist)")
	flag.Parse()
	out, files, err := culture.Run(*data, *dist, *version)
	if err != nil {
		fmt.Fprintln(os.Stderr, "buildculture:", err)
		os.Exit(1)
	}
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		fmt.Printf("%s %d bytes\n", filepath.Join(out, n), len(files[n]))
	}
}
