// Package dist embeds the built-in locales (en and tr, spec 1 Locale rules
// 4) of the pack version the Worker serves, as pre-normalised binary
// indexes, so those locales answer from the first request with no I/O and
// about a millisecond of loading. Other locales load from the static assets,
// and so do the related words of the English extension pack
// (index.en.related.bin, kept out of index.en.bin so the module stays
// under the Free plan's 3 MB gzip).
package dist

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"io/fs"
	"path"
)

// Version is the pack version built into the module; wrangler.toml's
// PACK_VERSION names the same version.
const Version = "e17c48r3"

//go:embed e17c48r3/manifest.json e17c48r3/index.en.bin e17c48r3/index.tr.bin e17c48r3/vectors.*.sums.json
var files embed.FS

// Builtin returns the built-in index files and the manifest (which lists
// the part indexes served from the assets) keyed by file name. The bytes
// are the embedded ones: the engine reads them in place and never writes.
func Builtin() (map[string][]byte, error) {
	out := map[string][]byte{}
	for _, name := range []string{"index.en.bin", "index.tr.bin", "manifest.json"} {
		b, err := files.ReadFile(path.Join(Version, name))
		if err != nil {
			return nil, err
		}
		out[name] = b
	}
	return out, nil
}

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
