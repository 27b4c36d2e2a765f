package dist

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBuiltin(t *testing.T) {
	files, err := Builtin()
	require.NoError(t, err)
	assert.Len(t, files, 3)
	assert.Contains(t, files, "manifest.json")
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
