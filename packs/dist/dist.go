// Package dist embeds the built-in locales (en and tr, spec 1 Locale rules
// 4) of the pack version the Worker serves, as pre-normalised binary
// indexes, so those locales answer from the first request with no I/O and
// about a millisecond of loading. Other locales load from the static assets,
// and so do the related words of the English extension pack
// (index.en.related.bin, kept out of index.en.bin so the module stays
// under the Free plan's 3 MB gzip).
package dist

import (
	"embed"
	"encoding/json"
	"path"
)

// Version is the pack version built into the module; wrangler.toml's
// PACK_VERSION names the same version.
const Version = "e17c48r2"

//go:embed e17c48r2/manifest.json e17c48r2/index.en.bin e17c48r2/index.tr.bin
var files embed.FS

// Builtin returns the built-in index files keyed by file name. The bytes
// are the embedded ones: the engine reads them in place and never writes.
func Builtin() (map[string][]byte, error) {
	out := map[string][]byte{}
	for _, name := range []string{"index.en.bin", "index.tr.bin"} {
		b, err := files.ReadFile(path.Join(Version, name))
		if err != nil {
			return nil, err
		}
		out[name] = b
	}
	return out, nil
}

// DataHash is the manifest's content hash of every pack file of Version.
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
	return m.Hash, nil
}
