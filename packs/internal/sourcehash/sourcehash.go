// Package sourcehash identifies the hand-written sources a pack build reads
// (editorial phrases, places), so manifest.json records which ones made it.
package sourcehash

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"path"
)

// Of returns "sha256:<hex>" over the base names and bytes of the files of
// fsys matching pattern, in name order.
func Of(fsys fs.FS, pattern string) string {
	names, _ := fs.Glob(fsys, pattern)
	h := sha256.New()
	for _, n := range names {
		b, _ := fs.ReadFile(fsys, n)
		add(h, path.Base(n), b)
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

// OfBytes is Of for one source file held in memory.
func OfBytes(name string, b []byte) string {
	h := sha256.New()
	add(h, name, b)
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

func add(h io.Writer, name string, b []byte) {
	fmt.Fprintf(h, "%s\x00%d\x00", name, len(b))
	h.Write(b)
}
