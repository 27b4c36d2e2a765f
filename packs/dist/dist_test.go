package dist

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestManifest(t *testing.T) {
	m, err := Manifest()
	require.NoError(t, err)
	var manifest struct {
		PackVersion string `json:"packVersion"`
	}
	require.NoError(t, json.Unmarshal(m, &manifest))
	assert.Equal(t, Version, manifest.PackVersion)
}

// TestEmbedNamesVersion: the go:embed patterns, which cannot name a
// constant, embed the files of Version.
func TestEmbedNamesVersion(t *testing.T) {
	src, err := os.ReadFile("dist.go")
	require.NoError(t, err)
	var patterns []string
	for _, line := range strings.Split(string(src), "\n") {
		if rest, ok := strings.CutPrefix(line, "//go:embed "); ok {
			patterns = append(patterns, strings.Fields(rest)...)
		}
	}
	require.NotEmpty(t, patterns)
	for _, p := range patterns {
		assert.True(t, strings.HasPrefix(p, Version+"/"), "//go:embed %s names another version than %s", p, Version)
	}
}

func TestDataHash(t *testing.T) {
	hash, err := DataHash()
	require.NoError(t, err)
	assert.Len(t, hash, 64)
}

// The embedded sums are those of the vector files beside them, so the cache
// key cannot miss a rebuilt vector file.
func TestVectorSumsMatchTheFiles(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(Version, "vectors.glove-cldr.sums.json"))
	require.NoError(t, err)
	var sums map[string]string
	require.NoError(t, json.Unmarshal(raw, &sums))
	files, err := filepath.Glob(filepath.Join(Version, "vectors.*.bin"))
	require.NoError(t, err)
	require.Len(t, sums, len(files))
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		sum := sha256.Sum256(b)
		assert.Equal(t, hex.EncodeToString(sum[:]), sums[filepath.Base(f)], f)
	}
}
