package r2

import (
	"context"
	"crypto/md5"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/emojisearch/emojisearch/hostsim/internal/filestore"
)

// Bucket is one R2 bucket persisted in a directory: objects/ holds a JSON
// metadata file per key (see package filestore) and blobs/ the bodies, one
// file per object version, byte for byte as uploaded. A put writes the new
// body, then atomically switches the metadata to it, then removes the old
// body, so a crash never shows a torn object; Open removes bodies a crash
// left unreferenced. An object whose metadata does not decode, or whose
// body is lost or short, is quarantined with a log line (package
// filestore) and is absent from then on: a 404 at the route, not an error
// every reader retries for ever (issue 31). It is safe for concurrent use.
type Bucket struct {
	objects *filestore.Store
	log     io.Writer
	blobDir string
	now     func() time.Time
	rand    io.Reader

	mu sync.RWMutex // serialises onlyIf checks with the writes they guard
}

// Config configures OpenWithConfig: WithClock (Uploaded and onlyIf date checks) and WithRand (version ids, the same every test run). It is an immutable
// value: start from NewConfig; every With… returns a changed copy.
type Config = filestore.Config

// NewConfig is the default: time.Now and crypto/rand.
func NewConfig() Config { return filestore.NewConfig() }

// Open opens (creating if needed) the bucket stored in dir.
func Open(dir string) (*Bucket, error) { return OpenWithConfig(dir, NewConfig()) }

// OpenWithConfig is Open with a Config.
func OpenWithConfig(dir string, cfg Config) (*Bucket, error) {
	env, err := filestore.NewEnv(dir, cfg)
	if err != nil {
		return nil, fmt.Errorf("r2: %w", err)
	}
	objects, err := filestore.Open(filepath.Join(dir, "objects"), env.Log)
	if err != nil {
		return nil, fmt.Errorf("r2: %w", err)
	}
	b := &Bucket{objects: objects, log: env.Log, blobDir: filepath.Join(dir, "blobs"), now: env.Now, rand: env.Rand}
	if err := os.MkdirAll(b.blobDir, 0o755); err != nil {
		return nil, fmt.Errorf("r2: %w", err)
	}
	if err := b.removeOrphanBlobs(); err != nil {
		return nil, err
	}
	return b, nil
}

// storedObject is the metadata file's content.
type storedObject struct {
	Version        string            `json:"version"`
	Size           int64             `json:"size"`
	ETag           string            `json:"etag"`
	Uploaded       int64             `json:"uploadedMs"`
	HTTPMetadata   HTTPMetadata      `json:"httpMetadata"`
	CustomMetadata map[string]string `json:"customMetadata,omitempty"`
}

func (s *storedObject) uploaded() time.Time { return time.UnixMilli(s.Uploaded).UTC() }

func (s *storedObject) object(key string) *Object {
	custom := make(map[string]string, len(s.CustomMetadata))
	for k, v := range s.CustomMetadata {
		custom[k] = v
	}
	return &Object{
		Key:            key,
		Version:        s.Version,
		Size:           s.Size,
		ETag:           s.ETag,
		HTTPETag:       `"` + s.ETag + `"`,
		Uploaded:       s.uploaded(),
		HTTPMetadata:   s.HTTPMetadata,
		CustomMetadata: custom,
	}
}

func decodeStored(rec filestore.Record) (*storedObject, error) {
	var s storedObject
	if err := json.Unmarshal(rec.Metadata, &s); err != nil {
		return nil, fmt.Errorf("r2: object %q: %w: %v", rec.Key, filestore.ErrCorrupt, err)
	}
	return &s, nil
}

// load reads key's metadata; nil when there is no object (or its metadata
// was damaged, and is now quarantined).
func (b *Bucket) load(key string) (*storedObject, error) {
	rec, ok, err := b.objects.Get(key, b.now())
	if err != nil || !ok {
		return nil, wrap(err)
	}
	return b.decode(rec), nil
}

// decode is decodeStored that quarantines what does not decode (nil).
func (b *Bucket) decode(rec filestore.Record) *storedObject {
	stored, err := decodeStored(rec)
	if err != nil {
		b.objects.Quarantine(rec.Key, err)
		return nil
	}
	return stored
}

// lost quarantines key's metadata when its body is missing or short, so
// the object reads as absent: the body cannot come back.
func (b *Bucket) lost(key string, err error) {
	fmt.Fprintf(b.log, "r2: object %q lost its body: %v\n", key, err)
	b.objects.Quarantine(key, err)
}

func (b *Bucket) blobPath(version string) string { return filepath.Join(b.blobDir, version) }

// Put stores body under key. It returns a nil object, storing nothing, when
// opts.OnlyIf does not hold.
func (b *Bucket) Put(ctx context.Context, key string, body []byte, opts PutOptions) (*Object, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := validatePutOptions(opts); err != nil {
		return nil, err
	}
	sum := md5.Sum(body)
	if err := validatePut(key, int64(len(body)), opts, sum[:]); err != nil {
		return nil, err
	}

	b.mu.Lock()
	defer b.mu.Unlock()
	old, err := b.load(key)
	if err != nil {
		return nil, err
	}
	if !holds(opts.OnlyIf, old) {
		return nil, nil
	}
	stored, err := b.newStoredObject(body, sum[:], opts)
	if err != nil {
		return nil, err
	}
	if err := b.commit(key, body, stored); err != nil {
		return nil, err
	}
	if old != nil {
		if err := removeBlob(b.blobPath(old.Version)); err != nil {
			return nil, err
		}
	}
	return stored.object(key), nil
}

func (b *Bucket) newStoredObject(body, sum []byte, opts PutOptions) (*storedObject, error) {
	id := make([]byte, 16)
	if _, err := io.ReadFull(b.rand, id); err != nil {
		return nil, fmt.Errorf("r2: generating a version: %w", err)
	}
	httpMeta := opts.HTTPMetadata
	if httpMeta.CacheExpiry != nil {
		t := time.UnixMilli(httpMeta.CacheExpiry.UnixMilli()).UTC()
		httpMeta.CacheExpiry = &t
	}
	custom := make(map[string]string, len(opts.CustomMetadata))
	for k, v := range opts.CustomMetadata {
		custom[k] = v
	}
	return &storedObject{
		Version:        hex.EncodeToString(id),
		Size:           int64(len(body)),
		ETag:           hex.EncodeToString(sum),
		Uploaded:       b.now().UnixMilli(),
		HTTPMetadata:   httpMeta,
		CustomMetadata: custom,
	}, nil
}

// commit writes the body, then points key's metadata at it.
func (b *Bucket) commit(key string, body []byte, stored *storedObject) error {
	blob := b.blobPath(stored.Version)
	if _, err := os.Stat(blob); err == nil {
		return fmt.Errorf("r2: version %s already exists (is the random source repeating?)", stored.Version)
	}
	if err := filestore.WriteFileAtomic(blob, body); err != nil {
		return wrap(err)
	}
	meta, err := json.Marshal(stored)
	if err == nil {
		err = b.objects.Put(filestore.Record{Key: key, Metadata: meta})
	}
	if err != nil {
		_ = removeBlob(blob)
		return wrap(err)
	}
	return nil
}

// Get returns key's object and body. With no object both are nil. When
// opts.OnlyIf fails the object comes back with a nil body; a body that was
// read is never nil, even when empty.
func (b *Bucket) Get(ctx context.Context, key string, opts GetOptions) (*Object, []byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	if err := validateRangeOptions(opts.Range); err != nil {
		return nil, nil, err
	}
	if err := validateKey("get", key); err != nil {
		return nil, nil, err
	}
	b.mu.RLock()
	defer b.mu.RUnlock()
	stored, err := b.load(key)
	if err != nil || stored == nil {
		return nil, nil, err
	}
	obj := stored.object(key)
	if !holds(opts.OnlyIf, stored) {
		obj.Range = wholeRange(stored.Size)
		return obj, nil, nil
	}
	span, partial, err := resolveRange(opts, stored.Size)
	if err != nil {
		return nil, nil, err
	}
	if !partial {
		span = filestore.ByteRange{Start: 0, End: stored.Size - 1}
	}
	body, err := readBlob(b.blobPath(stored.Version), span)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, filestore.ErrCorrupt) {
		b.lost(key, err)
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	start, length := span.Start, span.Len()
	obj.Range = &Range{Offset: &start, Length: &length}
	return obj, body, nil
}

// Head returns key's object without its body; nil when there is none.
func (b *Bucket) Head(ctx context.Context, key string) (*Object, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := validateKey("head", key); err != nil {
		return nil, err
	}
	b.mu.RLock()
	defer b.mu.RUnlock()
	stored, err := b.load(key)
	if err != nil || stored == nil {
		return nil, err
	}
	obj := stored.object(key)
	obj.Range = wholeRange(stored.Size)
	return obj, nil
}

// Delete removes the given keys; missing keys are ignored, as in R2. Every
// key is checked before any is deleted.
func (b *Bucket) Delete(ctx context.Context, keys ...string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	for _, key := range keys {
		if err := validateKey("delete", key); err != nil {
			return err
		}
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, key := range keys {
		stored, err := b.load(key)
		if err != nil {
			return err
		}
		if stored == nil {
			continue
		}
		if _, err := b.objects.Delete(key, b.now()); err != nil {
			return wrap(err)
		}
		if err := removeBlob(b.blobPath(stored.Version)); err != nil {
			return err
		}
	}
	return nil
}

// listRow is a key, or a group of keys sharing a delimited prefix, counted
// as one result the way R2 pages them.
type listRow struct {
	lastKey string
	prefix  string // the delimited prefix; empty for a plain key
	rec     filestore.Record
}

// List returns objects in key order (R2Bucket.list).
func (b *Bucket) List(ctx context.Context, opts ListOptions) (ListResult, error) {
	if err := ctx.Err(); err != nil {
		return ListResult{}, err
	}
	limit, err := validateListOptions(opts)
	if err != nil {
		return ListResult{}, err
	}
	b.mu.RLock()
	recs, err := b.objects.List(opts.Prefix, b.now())
	b.mu.RUnlock()
	if err != nil {
		return ListResult{}, wrap(err)
	}
	startAfter := opts.StartAfter
	if opts.Cursor != "" {
		if c := filestore.DecodeCursor(opts.Cursor); startAfter == "" || c > startAfter {
			startAfter = c
		}
	}
	if startAfter != "" {
		recs = filestore.After(recs, startAfter)
	}
	rows := groupRows(recs, opts.Prefix, opts.Delimiter)

	res := ListResult{Objects: []*Object{}, DelimitedPrefixes: []string{}}
	if len(rows) > limit {
		rows = rows[:limit]
		res.Truncated = true
		res.Cursor = filestore.EncodeCursor(rows[limit-1].lastKey)
	}
	for _, row := range rows {
		if row.prefix != "" {
			res.DelimitedPrefixes = append(res.DelimitedPrefixes, row.prefix)
			continue
		}
		stored := b.decode(row.rec)
		if stored == nil {
			continue
		}
		res.Objects = append(res.Objects, listedObject(row.rec.Key, stored, opts.Include))
	}
	return res, nil
}

// groupRows folds keys sharing prefix+...+delimiter into one row each (such
// keys are adjacent in sorted order); a group's cursor position is its last
// key, so the next page skips the whole group.
func groupRows(recs []filestore.Record, prefix, delimiter string) []listRow {
	rows := make([]listRow, 0, len(recs))
	for _, rec := range recs {
		if delimiter != "" {
			if i := strings.Index(rec.Key[len(prefix):], delimiter); i >= 0 {
				group := rec.Key[:len(prefix)+i+len(delimiter)]
				if n := len(rows); n > 0 && rows[n-1].prefix == group {
					rows[n-1].lastKey = rec.Key
				} else {
					rows = append(rows, listRow{lastKey: rec.Key, prefix: group})
				}
				continue
			}
		}
		rows = append(rows, listRow{lastKey: rec.Key, rec: rec})
	}
	return rows
}

// listedObject drops the metadata list() was not asked to include.
func listedObject(key string, stored *storedObject, include []string) *Object {
	obj := stored.object(key)
	wantHTTP, wantCustom := false, false
	for _, inc := range include {
		wantHTTP = wantHTTP || inc == IncludeHTTPMetadata
		wantCustom = wantCustom || inc == IncludeCustomMetadata
	}
	if !wantHTTP {
		obj.HTTPMetadata = HTTPMetadata{}
	}
	if !wantCustom {
		obj.CustomMetadata = nil
	}
	return obj
}

// holds evaluates an optional onlyIf against an optional object.
func holds(c *Conditional, stored *storedObject) bool {
	switch {
	case c == nil:
		return true
	case stored == nil:
		return c.passes(false, "", time.Time{})
	}
	return c.passes(true, stored.ETag, stored.uploaded())
}

func wholeRange(size int64) *Range {
	offset, length := int64(0), size
	return &Range{Offset: &offset, Length: &length}
}

func readBlob(path string, span filestore.ByteRange) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("r2: reading body: %w", err)
	}
	defer f.Close()
	buf := make([]byte, max(span.Len(), 0))
	if n, err := f.ReadAt(buf, span.Start); n != len(buf) {
		return nil, fmt.Errorf("r2: body %s: %w: short read: %v", filepath.Base(path), filestore.ErrCorrupt, err)
	}
	return buf, nil
}

func removeBlob(path string) error {
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("r2: %w", err)
	}
	return nil
}

// removeOrphanBlobs deletes bodies no object refers to: left by a crash
// between writing a body and committing or after replacing an object. An
// object whose body is gone is quarantined.
func (b *Bucket) removeOrphanBlobs() error {
	recs, err := b.objects.List("", b.now())
	if err != nil {
		return wrap(err)
	}
	live := make(map[string]bool, len(recs))
	for _, rec := range recs {
		stored := b.decode(rec)
		if stored == nil {
			continue
		}
		if _, err := os.Stat(b.blobPath(stored.Version)); errors.Is(err, fs.ErrNotExist) {
			b.lost(rec.Key, err)
			continue
		}
		live[stored.Version] = true
	}
	entries, err := os.ReadDir(b.blobDir)
	if err != nil {
		return wrap(err)
	}
	for _, e := range entries {
		if !live[e.Name()] && e.Type().IsRegular() {
			if err := removeBlob(filepath.Join(b.blobDir, e.Name())); err != nil {
				return err
			}
		}
	}
	return nil
}

func wrap(err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("r2: %w", err)
}
