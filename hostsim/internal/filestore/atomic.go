package filestore

import (
	"fmt"
	"os"
	"path/filepath"
)

// WriteFileAtomic replaces path with data so that readers and a crash see
// either the old file or the complete new one: it writes a temporary file in
// the same directory, syncs it, renames it over path and syncs the directory.
// Open removes temporary files a crash leaves, so they never linger.
func WriteFileAtomic(path string, data []byte) (err error) {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, tempPrefix+"*")
	if err != nil {
		return fmt.Errorf("filestore: %w", err)
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			_ = f.Close()
			_ = os.Remove(tmp)
		}
	}()
	if _, err = f.Write(data); err != nil {
		return fmt.Errorf("filestore: writing %s: %w", filepath.Base(path), err)
	}
	if err = f.Sync(); err != nil {
		return fmt.Errorf("filestore: syncing %s: %w", filepath.Base(path), err)
	}
	if err = f.Close(); err != nil {
		return fmt.Errorf("filestore: closing %s: %w", filepath.Base(path), err)
	}
	if err = os.Rename(tmp, path); err != nil {
		return fmt.Errorf("filestore: %w", err)
	}
	syncDir(dir)
	return nil
}

// syncDir makes a rename durable. Some platforms cannot sync a directory;
// the rename is still atomic there, only its durability is weaker.
func syncDir(dir string) {
	d, err := os.Open(dir)
	if err != nil {
		return
	}
	_ = d.Sync() // best effort: see above
	_ = d.Close()
}
