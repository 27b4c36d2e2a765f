// Command buildvectors builds the vector files of one pack version
// (packs/FORMAT.md "Vector files") from its core packs: the shared English
// file vectors.<model>.<dims>.bin and one vectors.<model>.<dims>.<locale>.bin
// per other locale. An emoji's text is its name, keywords and tags in that
// locale; rows without text of their own are left out of a locale file.
// The files of the -phrase-rows locales (default: none) also hold one row
// per phrase of the emoji (name, each keyword, tag and shortcode), each
// mixed with the emoji's whole text (unit(phrase + PhraseMix × text)); a
// search scores an emoji by its best row (vectors.SearchVectorSets). For the
// local model this bought little (hybrid hit@10 +0.005 on one dev set) for
// an 8× larger scan (6 ms a query in wasm, over the latency budget), so the
// served files keep one row per emoji.
//
//	go run ./packs/cmd/buildvectors                      # local model glove-cldr@100
//	CLOUDFLARE_ACCOUNT_ID=... CLOUDFLARE_API_TOKEN=... \
//	  go run ./packs/cmd/buildvectors -provider workers-ai -ai-model @cf/baai/bge-m3
//
// The local build is deterministic; a Workers AI build is as deterministic as
// the model.
package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/emojisearch/emojisearch/engine/embed"
	"github.com/emojisearch/emojisearch/engine/packfmt"
	"github.com/emojisearch/emojisearch/engine/vectors"
	"github.com/emojisearch/emojisearch/packs/workersai"
)

func main() {
	dir := flag.String("packs", filepath.Join("packs/dist", packfmt.DefaultVersion), "folder of the pack version (pack.<locale>.json)")
	out := flag.String("out", "", "output folder (default: the pack folder)")
	provider := flag.String("provider", "local", "local (the -model file) or workers-ai (REST API; CLOUDFLARE_ACCOUNT_ID, CLOUDFLARE_API_TOKEN)")
	modelPath := flag.String("model", "packs/models/glove-cldr.100.embm", "local model file")
	aiModel := flag.String("ai-model", "@cf/baai/bge-m3", "Workers AI model (with -provider workers-ai)")
	key := flag.String("key", "", "model key of the file names (default: glove-cldr, or the last part of -ai-model)")
	batch := flag.Int("batch", workersai.DefaultBatch, "texts per Workers AI request")
	phraseRows := flag.String("phrase-rows", "", "comma-separated locales whose file gets a row per phrase (\"\" for none)")
	flag.Parse()
	if *out == "" {
		*out = *dir
	}
	emb, err := embedder(*provider, *modelPath, *aiModel, *key, *batch)
	if err == nil {
		err = run(context.Background(), *dir, *out, packfmt.Locales, emb, strings.Split(*phraseRows, ","))
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "buildvectors:", err)
		os.Exit(1)
	}
}

// embedderFunc embeds texts; key is the model key of the file names.
type embedderFunc struct {
	key   string
	embed func(ctx context.Context, texts []string) ([][]float32, error)
}

func embedder(provider, modelPath, aiModel, key string, batch int) (embedderFunc, error) {
	switch provider {
	case "local":
		data, err := os.ReadFile(modelPath)
		if err != nil {
			return embedderFunc{}, err
		}
		m, err := embed.Load(data)
		if err != nil {
			return embedderFunc{}, err
		}
		if key == "" {
			key = m.Key()
		}
		return embedderFunc{key, func(_ context.Context, texts []string) ([][]float32, error) {
			return m.EmbedAll(texts), nil
		}}, nil
	case "workers-ai":
		c, err := workersai.FromEnv()
		if err != nil {
			return embedderFunc{}, err
		}
		c.Batch = batch
		if key == "" {
			key = aiModel[strings.LastIndex(aiModel, "/")+1:]
		}
		return embedderFunc{key, func(ctx context.Context, texts []string) ([][]float32, error) {
			return c.Embed(ctx, aiModel, texts)
		}}, nil
	}
	return embedderFunc{}, fmt.Errorf("unknown provider %q (local or workers-ai)", provider)
}

// run writes one vector file per locale; the files of phraseRows locales get
// phrase rows.
func run(ctx context.Context, dir, out string, locales []string, emb embedderFunc, phraseRows []string) error {
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	sums := map[string]string{}
	for _, loc := range locales {
		data, err := os.ReadFile(filepath.Join(dir, "pack."+loc+".json"))
		if err != nil {
			return err
		}
		p, err := packfmt.Decode(data)
		if err != nil {
			return fmt.Errorf("pack.%s.json: %w", loc, err)
		}
		ids, texts := EmojiTexts(p)
		multi := slices.Contains(phraseRows, loc)
		if multi {
			ids, texts = PhraseTexts(p)
		}
		rows, err := emb.embed(ctx, texts)
		if err != nil {
			return fmt.Errorf("%s: %w", loc, err)
		}
		if multi && len(rows) == len(ids) {
			MixPhraseRows(ids, rows)
		}
		if len(rows) != len(ids) || len(rows) == 0 {
			return errors.New(loc + ": no vectors")
		}
		model := fmt.Sprintf("%s@%d", emb.key, len(rows[0]))
		var b bytes.Buffer
		if err := vectors.EncodeVectors(&b, model, ids, rows); err != nil {
			return fmt.Errorf("%s: %w", loc, err)
		}
		name := FileName(emb.key, len(rows[0]), loc)
		if err := os.WriteFile(filepath.Join(out, name), b.Bytes(), 0o644); err != nil {
			return err
		}
		fmt.Printf("buildvectors: %s: %d rows, %d bytes\n", name, len(ids), b.Len())
		sum := sha256.Sum256(b.Bytes())
		sums[name] = hex.EncodeToString(sum[:])
	}
	return writeSums(filepath.Join(out, SumsName(emb.key)), sums)
}

// SumsName is the file listing a model's vector files with their SHA-256
// (vectors.<key>.sums.json): the Worker embeds it, so the shared cache key
// changes whenever a vector file does (spec 1 Metering 6).
func SumsName(key string) string { return "vectors." + key + ".sums.json" }

func writeSums(path string, sums map[string]string) error {
	b, err := json.MarshalIndent(sums, "", "  ") // keys sorted: deterministic
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

// FileName is vectors.<key>.<dims>.bin for English, else
// vectors.<key>.<dims>.<locale>.bin.
func FileName(key string, dims int, locale string) string {
	if locale == "en" {
		return fmt.Sprintf("vectors.%s.%d.bin", key, dims)
	}
	return fmt.Sprintf("vectors.%s.%d.%s.bin", key, dims, locale)
}

// EmojiTexts returns, in pack order, the ids of the rows that have text in
// the pack's locale and that text: name, keywords and tags joined by " | ".
func EmojiTexts(p *packfmt.Pack) (ids, texts []string) {
	for _, r := range p.Rows {
		var parts []string
		for _, f := range []int{packfmt.FieldName, packfmt.FieldKeyword, packfmt.FieldAlias} {
			parts = append(parts, r.Phrases[f]...)
		}
		if len(parts) == 0 {
			continue
		}
		ids = append(ids, r.ID)
		texts = append(texts, strings.Join(parts, " | "))
	}
	return ids, texts
}

// PhraseMix is the share of an emoji's whole text in each of its phrase rows:
// the row stays a phrase of that emoji ("bat" the animal, not the cricket
// bat) while matching the phrase closely.
const PhraseMix = 0.6

// PhraseTexts returns, in pack order, each emoji's whole text (EmojiTexts)
// followed by its distinct phrases: name, keywords, tags and shortcodes
// ("_" read as a space), each once after normalisation and none equal to
// the whole text.
func PhraseTexts(p *packfmt.Pack) (ids, texts []string) {
	wholeIDs, whole := EmojiTexts(p)
	at := 0
	for _, r := range p.Rows {
		if at == len(wholeIDs) || wholeIDs[at] != r.ID {
			continue
		}
		ids, texts = append(ids, r.ID), append(texts, whole[at])
		at++
		seen := map[string]bool{embed.Normalize(texts[len(texts)-1]): true}
		for _, f := range []int{packfmt.FieldName, packfmt.FieldKeyword, packfmt.FieldAlias, packfmt.FieldShortcode} {
			for _, ph := range r.Phrases[f] {
				ph = strings.ReplaceAll(ph, "_", " ")
				n := embed.Normalize(ph)
				if n == "" || seen[n] {
					continue
				}
				seen[n] = true
				ids, texts = append(ids, r.ID), append(texts, ph)
			}
		}
	}
	return ids, texts
}

// MixPhraseRows turns the phrase rows of PhraseTexts' order (an emoji's
// first row is its whole text) into unit(phrase + PhraseMix × whole text).
func MixPhraseRows(ids []string, rows [][]float32) {
	var whole []float32
	for i := range rows {
		if i == 0 || ids[i] != ids[i-1] {
			whole = vectors.L2Normalize(rows[i])
			continue
		}
		r := vectors.L2Normalize(rows[i])
		for d := range r {
			r[d] += PhraseMix * whole[d]
		}
		rows[i] = vectors.L2Normalize(r)
	}
}
