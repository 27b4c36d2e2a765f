package local_test

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/service/app/local"
)

func TestAssets(t *testing.T) {
	root, packs := t.TempDir(), t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(root, "index.html"), []byte("home"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(packs, "pack.en.json"), []byte("{}"), 0o644))
	src := local.Assets(local.Mounts{"/": root, "/v1/pack/v1/": packs})
	ctx := context.Background()
	for _, c := range []struct {
		method, path string
		status       int
		body, ctype  string
	}{
		{http.MethodGet, "/", 200, "home", "text/html; charset=utf-8"},
		{http.MethodGet, "/v1/pack/v1/pack.en.json", 200, "{}", "application/json"},
		{http.MethodHead, "/v1/pack/v1/pack.en.json", 200, "", "application/json"},
		{http.MethodGet, "/v1/pack/v1/missing.json", 404, "", ""},
		{http.MethodGet, "/v1/pack/v1/../../index.html", 404, "", ""},
		{http.MethodPost, "/", 405, "", ""},
	} {
		f, err := src(ctx, c.method, c.path, nil)
		require.NoError(t, err, c.path)
		assert.Equal(t, c.status, f.Status, "%s %s", c.method, c.path)
		assert.Equal(t, c.body, string(f.Body), c.path)
		assert.Equal(t, c.ctype, f.Header.Get("Content-Type"), c.path)
	}
}

func TestObjectsAndCache(t *testing.T) {
	ctx := context.Background()
	var o local.Objects
	for _, k := range []string{"b/2", "a/1", "b/1"} {
		require.NoError(t, o.Put(ctx, k, []byte(k), "text/plain", nil))
	}
	keys, err := o.List(ctx, "b/")
	require.NoError(t, err)
	assert.Equal(t, []string{"b/1", "b/2"}, keys)
	require.NoError(t, o.Delete(ctx, []string{"b/1", "none"}))
	_, found, err := o.Get(ctx, "b/1")
	require.NoError(t, err)
	assert.False(t, found)

	var c local.Cache
	require.NoError(t, c.Put(ctx, "https://x/1", http.Header{}, []byte("one")))
	body, found, err := c.Match(ctx, "https://x/1")
	require.NoError(t, err)
	assert.True(t, found)
	assert.Equal(t, "one", string(body))
	deleted, err := c.Delete(ctx, "https://x/1")
	require.NoError(t, err)
	assert.True(t, deleted)
	deleted, err = c.Delete(ctx, "https://x/1")
	require.NoError(t, err)
	assert.False(t, deleted)
}
