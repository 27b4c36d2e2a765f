package filestore

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var t0 = time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)

func keys(recs []Record) []string {
	out := make([]string, len(recs))
	for i, r := range recs {
		out[i] = r.Key
	}
	return out
}

func TestStoreRoundTripAndReopen(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir, nil)
	require.NoError(t, err)

	recs := []Record{
		{Key: "plain", Value: []byte("v1")},
		{Key: "with/slash and space", Value: []byte{0, 1, 2, '\n', 3}},
		{Key: "emoji 😀", Value: nil, Metadata: json.RawMessage(`{"a":1}`)},
		{Key: "bad utf8 \xff\xfe", Value: []byte("x"), Expiration: t0.Add(time.Hour)},
		{Key: strings.Repeat("k", 2000), Value: []byte("long key")},
	}
	for _, r := range recs {
		require.NoError(t, s.Put(r))
	}

	s2, err := Open(dir, nil) // a second store over the same directory sees everything
	require.NoError(t, err)
	for _, want := range recs {
		got, ok, err := s2.Get(want.Key, t0)
		require.NoError(t, err)
		require.True(t, ok, want.Key)
		assert.Equal(t, want.Key, got.Key)
		assert.Equal(t, string(want.Value), string(got.Value))
		assert.Equal(t, string(want.Metadata), string(got.Metadata))
		assert.True(t, want.Expiration.Equal(got.Expiration))
	}
	list, err := s2.List("", t0)
	require.NoError(t, err)
	assert.Equal(t, []string{"bad utf8 \xff\xfe", "emoji 😀", strings.Repeat("k", 2000), "plain", "with/slash and space"}, keys(list))
	for _, r := range list {
		assert.Nil(t, r.Value, "List must not read values")
	}
}

func TestStoreExpiry(t *testing.T) {
	s, err := Open(t.TempDir(), nil)
	require.NoError(t, err)
	exp := t0.Add(time.Minute)
	require.NoError(t, s.Put(Record{Key: "a", Value: []byte("1"), Expiration: exp}))
	require.NoError(t, s.Put(Record{Key: "b", Value: []byte("2")}))

	tests := []struct {
		name string
		now  time.Time
		live bool
	}{
		{"before", exp.Add(-time.Millisecond), true},
		{"at expiration", exp, false},
		{"after", exp.Add(time.Second), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, ok, err := s.Get("a", tt.now)
			require.NoError(t, err)
			assert.Equal(t, tt.live, ok)
		})
	}
	// The expired read removed the file; b is untouched.
	_, err = os.Stat(s.path("a"))
	assert.True(t, os.IsNotExist(err))
	list, err := s.List("", t0)
	require.NoError(t, err)
	assert.Equal(t, []string{"b"}, keys(list))
}

func TestStoreListRemovesExpired(t *testing.T) {
	s, err := Open(t.TempDir(), nil)
	require.NoError(t, err)
	require.NoError(t, s.Put(Record{Key: "p/old", Expiration: t0.Add(time.Second)}))
	require.NoError(t, s.Put(Record{Key: "p/new"}))
	require.NoError(t, s.Put(Record{Key: "q"}))

	list, err := s.List("p/", t0.Add(time.Hour))
	require.NoError(t, err)
	assert.Equal(t, []string{"p/new"}, keys(list))
	_, err = os.Stat(s.path("p/old"))
	assert.True(t, os.IsNotExist(err))
}

func TestStoreDelete(t *testing.T) {
	s, err := Open(t.TempDir(), nil)
	require.NoError(t, err)
	require.NoError(t, s.Put(Record{Key: "live"}))
	require.NoError(t, s.Put(Record{Key: "stale", Expiration: t0}))

	tests := []struct {
		key  string
		want bool
	}{
		{"live", true},
		{"live", false}, // already gone
		{"stale", false},
		{"never", false},
	}
	for _, tt := range tests {
		got, err := s.Delete(tt.key, t0)
		require.NoError(t, err)
		assert.Equal(t, tt.want, got, tt.key)
	}
}

func TestOpenRemovesTempFilesAndIgnoresForeignFiles(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir, nil)
	require.NoError(t, err)
	require.NoError(t, s.Put(Record{Key: "k", Value: []byte("committed")}))
	// A crash mid-write leaves a temporary file; a stranger leaves a note.
	require.NoError(t, os.WriteFile(filepath.Join(dir, tempPrefix+"123"), []byte("half"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "README"), []byte("hi"), 0o644))

	s, err = Open(dir, nil)
	require.NoError(t, err)
	_, err = os.Stat(filepath.Join(dir, tempPrefix+"123"))
	assert.True(t, os.IsNotExist(err))
	list, err := s.List("", t0)
	require.NoError(t, err)
	assert.Equal(t, []string{"k"}, keys(list))
}

// A damaged entry file is quarantined with a log line, whether Open, Get,
// List or Delete meets it first: the entry reads as absent, the others are
// untouched, and the file is kept for inspection (issue 31).
func TestCorruptEntryIsQuarantined(t *testing.T) {
	tests := []struct {
		name    string
		content string
	}{
		{"empty", ""},
		{"no newline", "garbage"},
		{"not json", "garbage\nvalue"},
		{"unknown version", `{"v":9,"key":"k"}` + "\n"},
		{"unknown field", `{"v":1,"key":"k","extra":1}` + "\n"},
		{"other key", `{"v":1,"key":"other"}` + "\n"},
	}
	meet := map[string]func(s *Store) error{
		"open": func(s *Store) error {
			_, err := Open(s.dir, s.log)
			return err
		},
		"get": func(s *Store) error {
			_, ok, err := s.Get("k", t0)
			assert.False(t, ok)
			return err
		},
		"list": func(s *Store) error {
			list, err := s.List("", t0)
			assert.Equal(t, []string{"good"}, keys(list))
			return err
		},
		"delete": func(s *Store) error {
			ok, err := s.Delete("k", t0)
			assert.False(t, ok)
			return err
		},
	}
	for _, tt := range tests {
		for how, fn := range meet {
			t.Run(tt.name+"/"+how, func(t *testing.T) {
				var log strings.Builder
				s, err := Open(t.TempDir(), &log)
				require.NoError(t, err)
				require.NoError(t, s.Put(Record{Key: "good", Value: []byte("v")}))
				require.NoError(t, os.WriteFile(s.path("k"), []byte(tt.content), 0o644))
				require.NoError(t, fn(s))
				assert.Contains(t, log.String(), "filestore: quarantined "+s.path("k"))
				_, err = os.Stat(s.path("k"))
				assert.True(t, os.IsNotExist(err), "moved out of the store")
				kept, err := os.ReadFile(filepath.Join(s.dir, quarantineDir, filepath.Base(s.path("k"))))
				require.NoError(t, err)
				assert.Equal(t, tt.content, string(kept))
				got, ok, err := s.Get("good", t0)
				require.NoError(t, err)
				require.True(t, ok)
				assert.Equal(t, "v", string(got.Value))
			})
		}
	}
}

func TestOpenRejectsEmptyDir(t *testing.T) {
	_, err := Open("", nil)
	require.Error(t, err)
}

func TestConcurrentPutGet(t *testing.T) {
	s, err := Open(t.TempDir(), nil)
	require.NoError(t, err)
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			for j := 0; j < 20; j++ {
				v := []byte(strings.Repeat(string(rune('a'+i)), 100))
				assert.NoError(t, s.Put(Record{Key: "shared", Value: v}))
				got, ok, err := s.Get("shared", t0)
				assert.NoError(t, err)
				if assert.True(t, ok) {
					assert.Len(t, got.Value, 100, "a reader never sees a torn value")
				}
			}
		}(i)
	}
	wg.Wait()
}
