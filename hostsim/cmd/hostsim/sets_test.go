package main

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSetsUpstream(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "npm", "set"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "npm", "set", "1F600.svg"), []byte("<svg/>"), 0o644))

	vars := varFlag{}
	require.NoError(t, setsUpstream(dir, "", vars))
	res, err := http.Get(vars["SETS_UPSTREAM"] + "npm/set/1F600.svg")
	require.NoError(t, err)
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	assert.Equal(t, 200, res.StatusCode, "serve with no flags serves the local upstream")
	assert.Equal(t, "<svg/>", string(body))

	vars = varFlag{}
	require.NoError(t, setsUpstream(dir, "https://cdn.example/", vars))
	assert.Equal(t, "https://cdn.example/", vars["SETS_UPSTREAM"], "--sets-upstream points elsewhere")

	vars = varFlag{"SETS_UPSTREAM": "http://mine/"}
	require.NoError(t, setsUpstream(dir, "https://cdn.example/", vars))
	assert.Equal(t, "http://mine/", vars["SETS_UPSTREAM"], "an explicit --var wins")

	vars = varFlag{}
	require.NoError(t, setsUpstream(filepath.Join(dir, "missing"), "", vars))
	_, set := vars["SETS_UPSTREAM"]
	assert.False(t, set, "without the folder wrangler.toml's value stays")
}
