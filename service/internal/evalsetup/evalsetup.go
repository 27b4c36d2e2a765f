// Package evalsetup builds what the evaluation commands (service/cmd/...)
// run the real routes over: the packs of a pack folder, with the files the
// Worker embeds (index.en.bin, index.tr.bin and the manifest, which lists
// the part indexes) and the rest read on demand as the Worker reads its
// static assets, and the meaning tier over the local embedding model. One
// set-up, so every evaluation measures what the Worker serves.
package evalsetup

import (
	"context"
	"os"
	"path/filepath"

	"github.com/emojisearch/emojisearch/engine"
	"github.com/emojisearch/emojisearch/engine/embed"
	"github.com/emojisearch/emojisearch/service/meaning"
	"github.com/emojisearch/emojisearch/service/search"
)

// Local is a pack folder's packs and, when a model file was given, the
// meaning tier over it.
type Local struct {
	PackVersion string
	Packs       *search.Packs
	Model       meaning.Model // zero without a model
	Tier        *meaning.Tier // nil without a model
}

// Load reads the pack folder dir; modelPath "" leaves the meaning tier out.
func Load(dir, modelPath string) (Local, error) {
	builtin := map[string][]byte{}
	for _, n := range []string{"index.en.bin", "index.tr.bin", search.ManifestFile} {
		b, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			return Local{}, err
		}
		builtin[n] = b
	}
	packs, err := search.NewPacks(builtin, dirFiles(dir))
	if err != nil {
		return Local{}, err
	}
	l := Local{PackVersion: filepath.Base(dir), Packs: packs}
	if modelPath == "" {
		return l, nil
	}
	b, err := os.ReadFile(modelPath)
	if err != nil {
		return Local{}, err
	}
	em, err := embed.Load(b)
	if err != nil {
		return Local{}, err
	}
	if l.Model, err = meaning.Lookup(em.Name()); err != nil {
		return Local{}, err
	}
	en, err := engine.Load(engine.NewConfig(), builtin["index.en.bin"])
	if err != nil {
		return Local{}, err
	}
	l.Tier = meaning.New(meaning.Config{
		Model: l.Model, Embedder: meaning.Local{Model: em}, Files: dirFiles(dir), Emoji: en.EmojiOf,
	})
	return l, nil
}

// dirFiles reads pack and vector files from the pack folder.
type dirFiles string

func (d dirFiles) LoadPack(_ context.Context, name string) ([]byte, error) {
	return os.ReadFile(filepath.Join(string(d), name))
}

func (d dirFiles) LoadVectors(_ context.Context, name string) ([]byte, error) {
	return os.ReadFile(filepath.Join(string(d), name))
}
