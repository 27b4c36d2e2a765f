// Package meaningtest sets up, for the tests of the routes that embed a
// message once (service/reactions and service/classify), the real packs
// and meaning tier over the committed pack version and local embedding
// model, so both test the routes on real components the same way.
package meaningtest

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/engine"
	"github.com/emojisearch/emojisearch/engine/embed"
	"github.com/emojisearch/emojisearch/service/meaning"
	"github.com/emojisearch/emojisearch/service/search"
)

// Dir reads pack and vector files from a folder.
type Dir string

// LoadPack reads a pack file.
func (d Dir) LoadPack(_ context.Context, n string) ([]byte, error) {
	return os.ReadFile(filepath.Join(string(d), n))
}

// LoadVectors reads a vector file.
func (d Dir) LoadVectors(_ context.Context, n string) ([]byte, error) {
	return os.ReadFile(filepath.Join(string(d), n))
}

// Failing is an embedding backend that is down.
type Failing struct{}

// Embed fails as a backend does.
func (Failing) Embed(context.Context, []string) ([][]float32, error) {
	return nil, meaning.ErrBackend
}

// Setup is the real packs and meaning tier of the committed pack version.
type Setup struct {
	Dir   string // the pack version's folder
	Packs *search.Packs
	Model meaning.Model
	Tier  *meaning.Tier
}

// root is the repository, found from this file (tests run in their own
// package folders).
func root() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..")
}

// New loads the committed pack version with English and Turkish built in
// and a meaning tier embedding through emb (nil: the local model).
func New(t testing.TB, emb meaning.Embedder) Setup {
	t.Helper()
	dirs, err := filepath.Glob(filepath.Join(root(), "packs", "dist", "*", "manifest.json"))
	require.NoError(t, err)
	require.NotEmpty(t, dirs)
	d := filepath.Dir(dirs[0])
	builtin := map[string][]byte{}
	for _, n := range []string{"index.en.bin", "index.tr.bin"} {
		builtin[n], err = os.ReadFile(filepath.Join(d, n))
		require.NoError(t, err)
	}
	packs, err := search.NewPacks(builtin, Dir(d))
	require.NoError(t, err)
	model, err := meaning.Lookup("glove-cldr@100")
	require.NoError(t, err)
	if emb == nil {
		emb = Local(t)
	}
	en, err := engine.Load(engine.NewConfig(), builtin["index.en.bin"])
	require.NoError(t, err)
	tier := meaning.New(meaning.Config{Model: model, Embedder: emb, Files: Dir(d), Emoji: en.EmojiOf})
	return Setup{Dir: d, Packs: packs, Model: model, Tier: tier}
}

var local struct {
	once sync.Once
	emb  meaning.Embedder
	err  error
}

// Local is the committed local embedding model, loaded once per process.
func Local(t testing.TB) meaning.Embedder {
	t.Helper()
	local.once.Do(func() {
		b, err := os.ReadFile(filepath.Join(root(), "packs", "models", "glove-cldr.100.embm"))
		if err != nil {
			local.err = err
			return
		}
		em, err := embed.Load(b)
		local.emb, local.err = meaning.Local{Model: em}, err
	})
	require.NoError(t, local.err)
	return local.emb
}
