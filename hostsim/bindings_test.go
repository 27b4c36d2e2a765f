package hostsim

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/hostsim/internal/wrangler"
)

// Every binding kind the wrangler package reads has a row in bindingKinds
// (and no row names a kind it does not read): a kind added to one and not
// the other would leave a binding silently unbound.
func TestBindingKindsCoverWrangler(t *testing.T) {
	dir := t.TempDir()
	toml := `name = "w"
main = "w.mjs"
compatibility_date = "2025-01-01"
kv_namespaces = [{ binding = "KV", id = "k" }]
d1_databases = [{ binding = "DB", database_name = "d" }]
r2_buckets = [{ binding = "R2", bucket_name = "b" }]
ai = { binding = "AI" }
assets = { directory = ".", binding = "ASSETS" }
[[ratelimits]]
name = "RL"
namespace_id = "1"
simple = { limit = 1, period = 60 }
`
	path := filepath.Join(dir, "wrangler.toml")
	require.NoError(t, os.WriteFile(path, []byte(toml), 0o644))
	cfg, err := wrangler.Load(path)
	require.NoError(t, err)
	require.NoError(t, cfg.Validate())

	read := map[string]bool{}
	for _, b := range cfg.Bindings() {
		if b.Kind != "vars" {
			read[b.Kind] = true
		}
	}
	table := map[string]bool{}
	for _, k := range bindingKinds {
		table[k.table] = true
		assert.NotNil(t, k.open, k.table)
		assert.NotEmpty(t, k.exposes, k.table)
	}
	assert.Equal(t, read, table)
}
