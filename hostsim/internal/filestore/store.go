// Package filestore is the on-disk key-value engine under hostsim's KV
// namespaces, Cache API caches and R2 object metadata, the way miniflare's
// shared KeyValueStorage sits under its KV and Cache simulators
// (packages/miniflare/src/workers/shared/keyvalue.worker.ts).
//
// Each key is one file in the store's directory, named by the SHA-256 of the
// key so any byte string fits a file name. A file holds one JSON header line
// (the key, its expiration and its metadata) followed by the raw value, so
// `head -1` shows what an entry is. Every write goes to a temporary file that
// is synced and then renamed over the old one: a crash leaves either the old
// entry or the new one, never a torn file. Temporary files left by a crash are
// removed by Open.
//
// A file whose header does not read (damaged outside filestore, or not
// written by it) is quarantined: moved to quarantine/ in the directory, kept
// for inspection, with a line on the log; the entry reads as absent from
// then on. Open sets every such file aside, so one damaged file never stops
// a store, or hostsim, from starting (issue 31).
//
// The store keeps no index in memory: List reads the header of every entry.
// That keeps several Store values over one directory consistent and is fast
// enough for local development data.
package filestore

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

const (
	entrySuffix   = ".entry"
	tempPrefix    = ".tmp-"
	quarantineDir = "quarantine"
	formatVersion = 1
	// maxHeaderSize bounds the header line we are willing to read, so a
	// foreign file in the directory cannot make us buffer without end.
	maxHeaderSize = 4 << 20
)

// ErrCorrupt reports an entry file that filestore did not write (or that was
// damaged outside it). Callers match it with errors.Is.
var ErrCorrupt = errors.New("filestore: corrupt entry file")

// Record is one stored entry. Value is nil in the records List returns.
type Record struct {
	Key string
	// Value is the stored bytes; List leaves it nil to avoid reading bodies.
	Value []byte
	// Expiration is when the entry stops being visible, kept at millisecond
	// precision like miniflare; the zero time means never.
	Expiration time.Time
	// Metadata is caller-defined JSON stored beside the value; nil means none.
	Metadata json.RawMessage
}

// Expired reports whether the record is no longer visible at now. As in
// miniflare, an entry expires at the first millisecond >= its expiration.
func (r Record) Expired(now time.Time) bool {
	return !r.Expiration.IsZero() && now.UnixMilli() >= r.Expiration.UnixMilli()
}

// header is the JSON line at the start of each entry file.
type header struct {
	Version int    `json:"v"`
	Key     string `json:"key,omitempty"`
	// KeyB64 carries keys that are not valid UTF-8, which JSON would mangle.
	KeyB64     string          `json:"keyB64,omitempty"`
	Expiration int64           `json:"expirationMs,omitempty"`
	Metadata   json.RawMessage `json:"metadata,omitempty"`
}

// Store is one directory of entries. It is safe for concurrent use; the lock
// makes a lazy expiry delete never remove an entry a concurrent Put replaced.
type Store struct {
	dir string
	log io.Writer
	mu  sync.RWMutex
}

// Open creates dir if needed, removes temporary files a crash left behind
// (so a half-written entry never becomes visible) and quarantines damaged
// entry files, with a line on log for each (nil: nowhere).
func Open(dir string, log io.Writer) (*Store, error) {
	if dir == "" {
		return nil, errors.New("filestore: empty directory name")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("filestore: %w", err)
	}
	names, err := readNames(dir)
	if err != nil {
		return nil, err
	}
	if log == nil {
		log = io.Discard
	}
	s := &Store{dir: dir, log: log}
	for _, name := range names {
		path := filepath.Join(dir, name)
		switch {
		case strings.HasPrefix(name, tempPrefix):
			if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return nil, fmt.Errorf("filestore: removing leftover %s: %w", name, err)
			}
		case strings.HasSuffix(name, entrySuffix):
			if _, _, err := s.read(path, "", false); err != nil {
				return nil, err
			}
		}
	}
	return s, nil
}

// read is readEntry that quarantines a damaged file (also one whose name
// is not its key's), which then reads as absent.
func (s *Store) read(path, want string, withValue bool) (Record, bool, error) {
	rec, ok, err := readEntry(path, want, withValue)
	if ok && err == nil && s.path(rec.Key) != path {
		err = fmt.Errorf("%w %s: holds another key", ErrCorrupt, filepath.Base(path))
	}
	if errors.Is(err, ErrCorrupt) {
		s.quarantine(path, err)
		return Record{}, false, nil
	}
	return rec, ok, err
}

// Quarantine sets key's entry aside as damaged: for a value its reader
// could not decode (the layers above keep their own formats in Metadata).
func (s *Store) Quarantine(key string, why error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.quarantine(s.path(key), why)
}

func (s *Store) quarantine(path string, why error) {
	dir := filepath.Join(s.dir, quarantineDir)
	err := os.MkdirAll(dir, 0o755)
	if err == nil {
		err = os.Rename(path, filepath.Join(dir, filepath.Base(path)))
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		// another reader set it aside first
	case err != nil:
		fmt.Fprintf(s.log, "filestore: %s is damaged (%v) and could not be quarantined: %v\n", path, why, err)
	default:
		fmt.Fprintf(s.log, "filestore: quarantined %s to %s: %v\n", path, dir, why)
	}
}

// Dir is the directory the store lives in.
func (s *Store) Dir() string { return s.dir }

func (s *Store) path(key string) string {
	sum := sha256.Sum256([]byte(key))
	return filepath.Join(s.dir, hex.EncodeToString(sum[:])+entrySuffix)
}

// Get returns the live entry for key. An expired entry is reported as absent
// and its file removed, as miniflare does on read.
func (s *Store) Get(key string, now time.Time) (Record, bool, error) {
	s.mu.RLock()
	rec, ok, err := s.read(s.path(key), key, true)
	s.mu.RUnlock()
	if err != nil || !ok {
		return Record{}, false, err
	}
	if !rec.Expired(now) {
		return rec, true, nil
	}
	return Record{}, false, s.removeIfExpired(key, now)
}

// removeIfExpired deletes key's file if it is still expired once the write
// lock is held (a Put may have replaced it meanwhile).
func (s *Store) removeIfExpired(key string, now time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	cur, ok, err := s.read(s.path(key), key, false)
	if err != nil || !ok || !cur.Expired(now) {
		return err
	}
	return removeFile(s.path(key))
}

// Put stores rec, replacing any entry with the same key atomically.
func (s *Store) Put(rec Record) error {
	data, err := encodeEntry(rec)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return WriteFileAtomic(s.path(rec.Key), data)
}

// Delete removes key and reports whether a live (unexpired) entry was there,
// matching miniflare's KeyValueStorage.delete.
func (s *Store) Delete(key string, now time.Time) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	rec, ok, err := s.read(s.path(key), key, false)
	if err != nil || !ok {
		return false, err
	}
	if err := removeFile(s.path(key)); err != nil {
		return false, err
	}
	return !rec.Expired(now), nil
}

// List returns the live entries whose keys start with prefix, sorted by key
// in byte order (SQLite's order for miniflare's TEXT keys), without values.
// Expired entries it meets are removed, as miniflare's list does.
func (s *Store) List(prefix string, now time.Time) ([]Record, error) {
	s.mu.RLock()
	live, expired, err := s.scan(prefix, now)
	s.mu.RUnlock()
	if err != nil {
		return nil, err
	}
	for _, key := range expired {
		if err := s.removeIfExpired(key, now); err != nil {
			return nil, err
		}
	}
	sort.Slice(live, func(i, j int) bool { return live[i].Key < live[j].Key })
	return live, nil
}

// After drops the records of a sorted List result up to and including
// startAfter: how a cursor (the last key already returned) resumes a list.
func After(recs []Record, startAfter string) []Record {
	i := sort.Search(len(recs), func(i int) bool { return recs[i].Key > startAfter })
	return recs[i:]
}

func (s *Store) scan(prefix string, now time.Time) (live []Record, expired []string, err error) {
	names, err := readNames(s.dir)
	if err != nil {
		return nil, nil, err
	}
	for _, name := range names {
		if !strings.HasSuffix(name, entrySuffix) {
			continue
		}
		rec, ok, err := s.read(filepath.Join(s.dir, name), "", false)
		if err != nil {
			return nil, nil, err
		}
		if !ok || !strings.HasPrefix(rec.Key, prefix) {
			continue
		}
		if rec.Expired(now) {
			expired = append(expired, rec.Key)
			continue
		}
		live = append(live, rec)
	}
	return live, expired, nil
}

func readNames(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("filestore: %w", err)
	}
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		if e.Type().IsRegular() {
			names = append(names, e.Name())
		}
	}
	return names, nil
}

func encodeEntry(rec Record) ([]byte, error) {
	h := header{Version: formatVersion, Metadata: rec.Metadata}
	if utf8.ValidString(rec.Key) {
		h.Key = rec.Key
	} else {
		h.KeyB64 = base64.StdEncoding.EncodeToString([]byte(rec.Key))
	}
	if !rec.Expiration.IsZero() {
		h.Expiration = rec.Expiration.UnixMilli()
	}
	line, err := json.Marshal(h) // compact: never contains a raw newline
	if err != nil {
		return nil, fmt.Errorf("filestore: encoding entry header: %w", err)
	}
	data := make([]byte, 0, len(line)+1+len(rec.Value))
	data = append(data, line...)
	data = append(data, '\n')
	return append(data, rec.Value...), nil
}

// readEntry reads the entry file at path. A missing file is (zero, false,
// nil). When want is not empty the stored key must equal it.
func readEntry(path, want string, withValue bool) (Record, bool, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Record{}, false, nil
	}
	if err != nil {
		return Record{}, false, fmt.Errorf("filestore: %w", err)
	}
	defer f.Close()
	br := bufio.NewReader(f)
	line, err := readHeaderLine(br)
	if err != nil {
		return Record{}, false, fmt.Errorf("%w %s: %v", ErrCorrupt, filepath.Base(path), err)
	}
	rec, err := decodeHeader(line)
	if err != nil {
		return Record{}, false, fmt.Errorf("%w %s: %v", ErrCorrupt, filepath.Base(path), err)
	}
	if want != "" && rec.Key != want {
		return Record{}, false, fmt.Errorf("%w %s: holds another key", ErrCorrupt, filepath.Base(path))
	}
	if withValue {
		if rec.Value, err = io.ReadAll(br); err != nil {
			return Record{}, false, fmt.Errorf("filestore: %w", err)
		}
	}
	return rec, true, nil
}

func readHeaderLine(br *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		line = append(line, chunk...)
		if len(line) > maxHeaderSize {
			return nil, errors.New("header line too long")
		}
		if err == nil {
			return line[:len(line)-1], nil
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return nil, fmt.Errorf("reading header: %w", err)
		}
	}
}

func decodeHeader(line []byte) (Record, error) {
	var h header
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&h); err != nil {
		return Record{}, err
	}
	if h.Version != formatVersion {
		return Record{}, fmt.Errorf("unknown format version %d", h.Version)
	}
	rec := Record{Key: h.Key, Metadata: h.Metadata}
	if h.KeyB64 != "" {
		key, err := base64.StdEncoding.DecodeString(h.KeyB64)
		if err != nil {
			return Record{}, err
		}
		rec.Key = string(key)
	}
	if h.Expiration != 0 {
		rec.Expiration = time.UnixMilli(h.Expiration)
	}
	return rec, nil
}

func removeFile(path string) error {
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("filestore: %w", err)
	}
	return nil
}
