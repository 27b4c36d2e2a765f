package assets

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// entry is one servable file.
type entry struct {
	file        string // absolute path
	etag        string // unquoted
	contentType string // "" when the extension is unknown
	size        int64
}

// buildManifest walks the assets folder like wrangler's upload: every regular
// file not matched by .assetsignore, keyed by its URL path ("/a/b.html").
// Symbolic links are followed when they stay inside the folder. All problems
// are returned at once.
func buildManifest(dir string) (map[string]entry, error) {
	root, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return nil, fmt.Errorf("assets: %w", err)
	}
	if st, err := os.Stat(root); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("assets: %s is not a directory", dir)
	}
	var rules []ignoreRule
	if b, err := os.ReadFile(filepath.Join(root, ignoreFile)); err == nil {
		rules = parseIgnore(string(b))
	} else {
		rules = parseIgnore("")
	}
	files := map[string]entry{}
	var problems []error
	walkErr := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			problems = append(problems, err)
			return nil
		}
		if d.IsDir() {
			return nil
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			problems = append(problems, err)
			return nil
		}
		rel = filepath.ToSlash(rel)
		if ignored(rules, rel) {
			return nil
		}
		target := p
		if d.Type()&fs.ModeSymlink != 0 {
			if target, err = filepath.EvalSymlinks(p); err != nil || !inside(root, target) {
				return nil // dangling, or pointing out of the folder: not an asset
			}
		}
		st, err := os.Stat(target)
		if err != nil || !st.Mode().IsRegular() {
			return nil
		}
		if st.Size() > MaxAssetSize {
			problems = append(problems, fmt.Errorf("asset too large: /%s is %d bytes, the limit is %d", rel, st.Size(), MaxAssetSize))
			return nil
		}
		sum, err := hashFile(target)
		if err != nil {
			problems = append(problems, err)
			return nil
		}
		files["/"+rel] = entry{file: target, etag: sum, contentType: contentType(rel), size: st.Size()}
		return nil
	})
	if walkErr != nil {
		problems = append(problems, walkErr)
	}
	if len(problems) > 0 {
		return nil, fmt.Errorf("assets: %w", errors.Join(problems...))
	}
	return files, nil
}

func inside(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// hashFile gives the strong ETag: 32 hex digits of the content's SHA-256.
// (wrangler hashes with BLAKE3; only stability and uniqueness matter here.)
func hashFile(p string) (string, error) {
	f, err := os.Open(p)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil))[:32], nil
}

func contentType(name string) string {
	t := contentTypes[strings.ToLower(filepath.Ext(name))]
	if strings.HasPrefix(t, "text/") {
		t += "; charset=utf-8"
	}
	return t
}
