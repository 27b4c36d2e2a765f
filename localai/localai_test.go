package localai

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/localai/aimodel"
	"github.com/emojisearch/emojisearch/localai/visionmodel"
)

func TestOpen(t *testing.T) {
	tests := []struct {
		name          string
		opts          Options
		embed, vision bool
		wantErr       string
	}{
		{name: "defaults of the repository", opts: Options{Root: ".."}, embed: true, vision: true},
		{name: "none and none", opts: Options{Root: "..", Embed: "none", Vision: "none"}},
		{name: "embedding only", opts: Options{Root: "..", Vision: "none", Alias: "@cf/baai/bge-m3"}, embed: true},
		{name: "no default files here", opts: Options{Root: t.TempDir()}},
		{name: "an alias without a model", opts: Options{Root: t.TempDir(), Alias: "x"}},
		{name: "a missing file", opts: Options{Root: "..", Embed: "nope.embm"}, wantErr: "nope.embm"},
		{name: "vision without packs", opts: Options{Root: t.TempDir(), Vision: filepath.Join("..", DefaultVisionModel)}, wantErr: "pack.en.json"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			mux, ok, err := Open(tc.opts)
			if tc.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.embed || tc.vision, ok)
			assert.Equal(t, tc.embed, mux.Embed != nil, "embedding model bound")
			assert.Equal(t, tc.vision, mux.Vision != nil, "vision model bound")
		})
	}
}

func TestAliasAnswers(t *testing.T) {
	mux, ok, err := Open(Options{Root: "..", Vision: "none", Alias: "@cf/baai/bge-m3"})
	require.NoError(t, err)
	require.True(t, ok)
	for _, name := range []string{aimodel.Name, "@cf/baai/bge-m3"} {
		_, err := mux.Run(context.Background(), name, map[string]any{"text": "cat"})
		assert.NoError(t, err, name)
	}
	_, err = mux.Run(context.Background(), visionmodel.Name, map[string]any{"image": []any{}})
	assert.ErrorIs(t, err, aimodel.ErrNoSuchModel, "with no vision model bound, its name is unknown")
}
