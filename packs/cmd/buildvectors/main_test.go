package main

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/engine/packfmt"
	"github.com/emojisearch/emojisearch/engine/vectors"
)

var packDir = filepath.Join("..", "..", "dist", packfmt.DefaultVersion)

// TestCommittedVectorsAreTheBuild rebuilds every locale's file from the
// committed packs and model and compares bytes: deterministic, up to date.
func TestCommittedVectorsAreTheBuild(t *testing.T) {
	emb, err := embedder("local", "../../models/glove-cldr.100.embm", "", "", 0)
	require.NoError(t, err)
	out := t.TempDir()
	locales := []string{"en", "es", "zh"}
	require.NoError(t, run(context.Background(), packDir, out, locales, emb, nil))
	for _, loc := range locales {
		name := FileName("glove-cldr", 100, loc)
		got, err := os.ReadFile(filepath.Join(out, name))
		require.NoError(t, err)
		want, err := os.ReadFile(filepath.Join(packDir, name))
		require.NoError(t, err, "committed %s (go run ./packs/cmd/buildvectors)", name)
		assert.Equal(t, want, got, name)
	}
}

func TestFileName(t *testing.T) {
	assert.Equal(t, "vectors.glove-cldr.100.bin", FileName("glove-cldr", 100, "en"))
	assert.Equal(t, "vectors.bge-m3.1024.zh.bin", FileName("bge-m3", 1024, "zh"))
}

// TestWorkersAIProvider builds files through a fake of the Workers AI REST
// API (its real wire format); the real API is never called.
func TestWorkersAIProvider(t *testing.T) {
	var requests int
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests++
		assert.Equal(t, "/client/v4/accounts/acc/ai/run/@cf/baai/bge-m3", r.URL.Path)
		assert.Equal(t, "Bearer secret", r.Header.Get("Authorization"))
		var in struct{ Text []string }
		require.NoError(t, json.NewDecoder(r.Body).Decode(&in))
		assert.LessOrEqual(t, len(in.Text), 500)
		data := make([][]float32, len(in.Text))
		for i, s := range in.Text {
			data[i] = []float32{float32(len(s)), 1, 0, 0, 0, 0, 0, 1}
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{
			"result": map[string]any{"shape": []int{len(data), 8}, "data": data}, "success": true,
			"errors": []any{}, "messages": []any{}})
	}))
	defer srv.Close()
	t.Setenv("CLOUDFLARE_ACCOUNT_ID", "acc")
	t.Setenv("CLOUDFLARE_API_TOKEN", "secret")
	t.Setenv("CLOUDFLARE_API_BASE_URL", srv.URL+"/client/v4")

	emb, err := embedder("workers-ai", "", "@cf/baai/bge-m3", "", 500)
	require.NoError(t, err)
	assert.Equal(t, "bge-m3", emb.key)
	out := t.TempDir()
	require.NoError(t, run(context.Background(), packDir, out, []string{"en", "tr"}, emb, nil))
	assert.Equal(t, 8, requests, "1914 texts per locale in batches of 500")
	for _, name := range []string{"vectors.bge-m3.8.bin", "vectors.bge-m3.8.tr.bin"} {
		b, err := os.ReadFile(filepath.Join(out, name))
		require.NoError(t, err)
		x, err := vectors.DecodeVectors(b)
		require.NoError(t, err)
		assert.Equal(t, "bge-m3@8", x.Model())
		assert.Greater(t, x.Len(), 1800)
	}

	_, err = embedder("nope", "", "", "", 0)
	assert.Error(t, err)
	t.Setenv("CLOUDFLARE_API_TOKEN", "")
	_, err = embedder("workers-ai", "", "@cf/baai/bge-m3", "", 100)
	assert.Error(t, err, "no credentials")
}
