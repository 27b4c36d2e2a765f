// Package localai binds the repository's own models as the Workers AI that
// `hostsim serve` offers: the embedding model (localai/aimodel) and the
// vision model (localai/visionmodel). They read the engine's formats and the
// packs, so they live beside hostsim, not in it: the simulator knows only
// the platform (hostsim.AIModel), and its command registers these.
package localai

import (
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/emojisearch/emojisearch/localai/aimodel"
	"github.com/emojisearch/emojisearch/localai/visionmodel"
)

// Default model files, relative to the repository (wrangler.toml's folder).
const (
	DefaultEmbedModel  = "packs/models/glove-cldr.100.embm"
	DefaultVisionModel = "packs/models/emoji-vision.noto.evis"
)

// Options name the models to bind. Embed and Vision are files; "" is the
// default file under Root when it exists, "none" is no model.
type Options struct {
	Root   string // the repository: wrangler.toml's folder
	Embed  string
	Vision string
	Alias  string // more names the embedding model answers to, comma-separated
}

// Open opens the models the options name; ok is false when none is bound.
func Open(o Options) (mux visionmodel.Mux, ok bool, err error) {
	if path := modelPath(o.Root, o.Embed, DefaultEmbedModel); path != "" {
		m, err := aimodel.Open(path)
		if err != nil {
			return mux, false, err
		}
		if o.Alias != "" {
			m = m.WithNames(strings.Split(o.Alias, ",")...)
		}
		mux.Embed = m
	}
	if path := modelPath(o.Root, o.Vision, DefaultVisionModel); path != "" {
		packs, _ := filepath.Glob(filepath.Join(o.Root, "packs", "dist", "*", "pack.en.json"))
		if len(packs) == 0 {
			return mux, false, errors.New("the vision model needs packs/dist/<version>/pack.en.json beside wrangler.toml")
		}
		v, err := visionmodel.Open(path, packs[len(packs)-1])
		if err != nil {
			return mux, false, err
		}
		mux.Vision = v
	}
	return mux, mux.Embed != nil || mux.Vision != nil, nil
}

// modelPath resolves a model option: "" is the default file when it
// exists, "none" is no model.
func modelPath(root, value, def string) string {
	switch value {
	case "none":
		return ""
	case "":
		p := filepath.Join(root, def)
		if _, err := os.Stat(p); err == nil {
			return p
		}
		return ""
	}
	return value
}
