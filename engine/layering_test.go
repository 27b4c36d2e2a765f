package engine

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEngineImportsNothingFromPacks keeps the layering: engine/ is the
// foundation and packs/ (the build) sits on it, so no file under engine/,
// tests and commands included, imports a package under packs/. The pack
// format both sides share lives in engine/packfmt.
func TestEngineImportsNothingFromPacks(t *testing.T) {
	const packs = "github.com/emojisearch/emojisearch/packs"
	fset := token.NewFileSet()
	seen := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		seen++
		for _, imp := range f.Imports {
			p, err := strconv.Unquote(imp.Path.Value)
			require.NoError(t, err)
			assert.False(t, p == packs || strings.HasPrefix(p, packs+"/"), "engine/%s imports %s", path, p)
		}
		return nil
	})
	require.NoError(t, err)
	assert.Greater(t, seen, 20, "the walk reached the engine's files")
}
