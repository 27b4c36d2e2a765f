// Package dist names the pack version the Worker serves and embeds what
// the shared cache key needs of it (the manifest's hash and the vector
// files' sums). The packs themselves live under <Version>/ and reach the
// Worker through the static assets (build.sh copies them to /v1/pack/).
//
// Why no index is built in (spec 1 Locale rules 4 builds en and tr in): the
// two indexes cost the module about 290 KB gzip, and with them the Worker
// did not leave room under the Free plan's 3 MiB for the features still to
// come (docs/benchmarks-history.md, "Issue 17"). They load from the assets
// like every other locale instead (about a millisecond to decode once
// read), and the instance's first search warms both in its waitUntil
// (search.Config.Prefetch), so only an instance's very first search waits
// for the English index. Building them in again is one go:embed line and
// a map for search.NewPacks.
package dist

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"io/fs"
	"path"

	"github.com/emojisearch/emojisearch/engine/packfmt"
)

// Version is the pack version built into the module: the registry's
// (packfmt.DefaultVersion). wrangler.toml's PACK_VERSION names the same
// version (internal/repocheck), and so must the go:embed patterns below,
// which cannot take a constant (TestEmbedNamesVersion).
const Version = packfmt.DefaultVersion

//go:embed e17c48r9/manifest.json e17c48r9/vectors.*.sums.json
var files embed.FS

// Manifest returns the embedded manifest.json of Version: search.NewPacks
// reads from it which part indexes (editorial) the assets hold.
func Manifest() ([]byte, error) { return files.ReadFile(path.Join(Version, "manifest.json")) }

// DataHash identifies every data file the service answers from: the
// manifest's content hash of the pack files and indexes of Version, and the
// SHA-256 of every vector file (vectors.<model>.sums.json, written by
// packs/cmd/buildvectors), so a fix of either changes the shared cache key
// (spec 1, Metering 6 and Versioning 4).
func DataHash() (string, error) {
	b, err := files.ReadFile(path.Join(Version, "manifest.json"))
	if err != nil {
		return "", err
	}
	var m struct {
		Hash string `json:"hash"`
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return "", err
	}
	sums, err := fs.Glob(files, path.Join(Version, "vectors.*.sums.json"))
	if err != nil {
		return "", err
	}
	h := sha256.New()
	h.Write([]byte(m.Hash))
	for _, name := range sums { // sorted by Glob
		b, err := files.ReadFile(name)
		if err != nil {
			return "", err
		}
		h.Write([]byte("\n" + path.Base(name) + "\n"))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
