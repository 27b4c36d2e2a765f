package kv

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeClock is a settable clock; tests advance it instead of sleeping.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *fakeClock { return &fakeClock{t: time.Unix(1_800_000_000, 0)} }

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func (c *fakeClock) Unix() int64 { return c.Now().Unix() }

func openNS(t *testing.T, dir string, clock *fakeClock) *Namespace {
	t.Helper()
	ns, err := OpenWithConfig(dir, NewConfig().WithClock(clock.Now))
	require.NoError(t, err)
	return ns
}

var ctx = context.Background()

func TestPutGetDelete(t *testing.T) {
	clock := newClock()
	ns := openNS(t, t.TempDir(), clock)

	require.NoError(t, ns.Put(ctx, "greeting", []byte("hello"), PutOptions{Metadata: json.RawMessage(`{ "lang" : "en" }`)}))
	got, ok, err := ns.Get(ctx, "greeting")
	require.NoError(t, err)
	require.True(t, ok)
	assert.Equal(t, Entry{Value: []byte("hello"), Metadata: json.RawMessage(`{"lang":"en"}`)}, got)

	require.NoError(t, ns.Put(ctx, "greeting", []byte("hi"), PutOptions{}))
	got, ok, err = ns.Get(ctx, "greeting")
	require.NoError(t, err)
	require.True(t, ok)
	assert.Equal(t, Entry{Value: []byte("hi")}, got, "a put replaces value and metadata")

	require.NoError(t, ns.Delete(ctx, "greeting"))
	_, ok, err = ns.Get(ctx, "greeting")
	require.NoError(t, err)
	assert.False(t, ok)
	require.NoError(t, ns.Delete(ctx, "greeting"), "deleting a missing key succeeds")
}

func TestEmptyValueAndNullMetadata(t *testing.T) {
	ns := openNS(t, t.TempDir(), newClock())
	require.NoError(t, ns.Put(ctx, "empty", nil, PutOptions{Metadata: json.RawMessage("null")}))
	got, ok, err := ns.Get(ctx, "empty")
	require.NoError(t, err)
	require.True(t, ok)
	assert.Empty(t, got.Value)
	assert.Nil(t, got.Metadata)
}

func TestPersistenceAcrossReopen(t *testing.T) {
	dir := t.TempDir()
	clock := newClock()
	ns := openNS(t, dir, clock)
	require.NoError(t, ns.Put(ctx, "a", []byte("1"), PutOptions{ExpirationTTL: 3600, Metadata: json.RawMessage(`[1,2]`)}))
	require.NoError(t, ns.Put(ctx, "b", []byte("2"), PutOptions{}))

	reopened := openNS(t, dir, clock)
	got, ok, err := reopened.Get(ctx, "a")
	require.NoError(t, err)
	require.True(t, ok)
	assert.Equal(t, Entry{Value: []byte("1"), Metadata: json.RawMessage(`[1,2]`), Expiration: clock.Unix() + 3600}, got)
	list, err := reopened.List(ctx, ListOptions{})
	require.NoError(t, err)
	assert.Equal(t, []string{"a", "b"}, names(list))
}

func TestExpiry(t *testing.T) {
	tests := []struct {
		name    string
		opts    func(now int64) PutOptions
		advance time.Duration
		found   bool
	}{
		{"ttl not reached", func(int64) PutOptions { return PutOptions{ExpirationTTL: 60} }, 59 * time.Second, true},
		{"ttl reached", func(int64) PutOptions { return PutOptions{ExpirationTTL: 60} }, 60 * time.Second, false},
		{"absolute not reached", func(now int64) PutOptions { return PutOptions{Expiration: now + 120} }, 119 * time.Second, true},
		{"absolute reached", func(now int64) PutOptions { return PutOptions{Expiration: now + 120} }, 120 * time.Second, false},
		{"ttl wins over expiration", func(now int64) PutOptions { return PutOptions{ExpirationTTL: 60, Expiration: now + 600} }, 90 * time.Second, false},
		{"no expiration", func(int64) PutOptions { return PutOptions{} }, 10 * 365 * 24 * time.Hour, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clock := newClock()
			ns := openNS(t, t.TempDir(), clock)
			require.NoError(t, ns.Put(ctx, "k", []byte("v"), tt.opts(clock.Unix())))
			clock.Advance(tt.advance)

			_, ok, err := ns.Get(ctx, "k")
			require.NoError(t, err)
			assert.Equal(t, tt.found, ok)
			list, err := ns.List(ctx, ListOptions{})
			require.NoError(t, err)
			assert.Equal(t, tt.found, len(list.Keys) == 1, "list agrees with get")
		})
	}
}

func TestListShowsExpirationAndMetadata(t *testing.T) {
	clock := newClock()
	ns := openNS(t, t.TempDir(), clock)
	require.NoError(t, ns.Put(ctx, "x", []byte("v"), PutOptions{ExpirationTTL: 100, Metadata: json.RawMessage(`{"n":1}`)}))
	require.NoError(t, ns.Put(ctx, "y", []byte("v"), PutOptions{}))
	list, err := ns.List(ctx, ListOptions{})
	require.NoError(t, err)
	assert.Equal(t, ListResult{
		Keys: []KeyInfo{
			{Name: "x", Expiration: clock.Unix() + 100, Metadata: json.RawMessage(`{"n":1}`)},
			{Name: "y"},
		},
		ListComplete: true,
	}, list)
}

func TestListPaginationWithCursor(t *testing.T) {
	ns := openNS(t, t.TempDir(), newClock())
	// Byte order, not insertion order: "B" < "a" < "a/b" < "aa" < "é".
	for _, k := range []string{"é", "aa", "a/b", "a", "B", "other/1"} {
		require.NoError(t, ns.Put(ctx, k, []byte(k), PutOptions{}))
	}

	tests := []struct {
		name   string
		prefix string
		limit  int
		pages  [][]string
	}{
		{"one page", "", 0, [][]string{{"B", "a", "a/b", "aa", "other/1", "é"}}},
		{"pages of two", "", 2, [][]string{{"B", "a"}, {"a/b", "aa"}, {"other/1", "é"}}},
		{"pages of four", "", 4, [][]string{{"B", "a", "a/b", "aa"}, {"other/1", "é"}}},
		{"prefix", "a", 2, [][]string{{"a", "a/b"}, {"aa"}}},
		{"prefix with no match", "zzz", 1, [][]string{{}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cursor := ""
			for i, want := range tt.pages {
				res, err := ns.List(ctx, ListOptions{Prefix: tt.prefix, Limit: tt.limit, Cursor: cursor})
				require.NoError(t, err)
				assert.Equal(t, want, names(res), "page %d", i)
				last := i == len(tt.pages)-1
				assert.Equal(t, last, res.ListComplete, "page %d", i)
				if last {
					assert.Empty(t, res.Cursor)
				} else {
					require.NotEmpty(t, res.Cursor)
				}
				cursor = res.Cursor
			}
		})
	}
}

func TestListCursorIsBase64OfLastKey(t *testing.T) {
	ns := openNS(t, t.TempDir(), newClock())
	for _, k := range []string{"a", "b", "c"} {
		require.NoError(t, ns.Put(ctx, k, nil, PutOptions{}))
	}
	res, err := ns.List(ctx, ListOptions{Limit: 1})
	require.NoError(t, err)
	assert.Equal(t, "YQ==", res.Cursor)

	// Keys added between pages after the cursor still show up.
	require.NoError(t, ns.Put(ctx, "ab", nil, PutOptions{}))
	res, err = ns.List(ctx, ListOptions{Cursor: res.Cursor})
	require.NoError(t, err)
	assert.Equal(t, []string{"ab", "b", "c"}, names(res))
}

func TestValidationErrors(t *testing.T) {
	clock := newClock()
	now := clock.Unix()
	long := strings.Repeat("k", 513)
	bigMeta := json.RawMessage(`"` + strings.Repeat("m", 1023) + `"`) // 1025 bytes
	type call func(ns *Namespace) error
	put := func(key string, value []byte, opts PutOptions) call {
		return func(ns *Namespace) error { return ns.Put(ctx, key, value, opts) }
	}
	get := func(key string) call {
		return func(ns *Namespace) error { _, _, err := ns.Get(ctx, key); return err }
	}
	del := func(key string) call {
		return func(ns *Namespace) error { return ns.Delete(ctx, key) }
	}
	list := func(opts ListOptions) call {
		return func(ns *Namespace) error { _, err := ns.List(ctx, opts); return err }
	}

	tests := []struct {
		name      string
		call      call
		status    int
		typeError bool
		message   string
	}{
		{"get empty key", get(""), 400, true, `Key name cannot be empty.`},
		{"put empty key", put("", nil, PutOptions{}), 400, true, `Key name cannot be empty.`},
		{"delete empty key", del(""), 400, true, `Key name cannot be empty.`},
		{"dot key", put(".", nil, PutOptions{}), 400, true, `"." is not allowed as a key name.`},
		{"dot dot key", get(".."), 400, true, `".." is not allowed as a key name.`},
		{"get long key", get(long), 414, false, `KV GET failed: 414 UTF-8 encoded length of 513 exceeds key length limit of 512.`},
		{"put long key", put(long, nil, PutOptions{}), 414, false, `KV PUT failed: 414 UTF-8 encoded length of 513 exceeds key length limit of 512.`},
		{"delete long key", del(long), 414, false, `KV DELETE failed: 414 UTF-8 encoded length of 513 exceeds key length limit of 512.`},
		{"long multibyte key", get(strings.Repeat("é", 257)), 414, false, `KV GET failed: 414 UTF-8 encoded length of 514 exceeds key length limit of 512.`},
		{"negative ttl", put("k", nil, PutOptions{ExpirationTTL: -1}), 400, false, `KV PUT failed: 400 Invalid expiration_ttl of -1. Please specify integer greater than 0.`},
		{"short ttl", put("k", nil, PutOptions{ExpirationTTL: 59}), 400, false, `KV PUT failed: 400 Invalid expiration_ttl of 59. Expiration TTL must be at least 60.`},
		{"expiration now", put("k", nil, PutOptions{Expiration: now}), 400, false, fmt.Sprintf(`KV PUT failed: 400 Invalid expiration of %d. Please specify integer greater than the current number of seconds since the UNIX epoch.`, now)},
		{"expiration past", put("k", nil, PutOptions{Expiration: -5}), 400, false, `KV PUT failed: 400 Invalid expiration of -5. Please specify integer greater than the current number of seconds since the UNIX epoch.`},
		{"expiration too soon", put("k", nil, PutOptions{Expiration: now + 59}), 400, false, fmt.Sprintf(`KV PUT failed: 400 Invalid expiration of %d. Expiration times must be at least 60 seconds in the future.`, now+59)},
		{"metadata too large", put("k", nil, PutOptions{Metadata: bigMeta}), 413, false, `KV PUT failed: 413 Metadata length of 1025 exceeds limit of 1024.`},
		{"metadata not json", put("k", nil, PutOptions{Metadata: json.RawMessage(`{oops`)}), 400, true, `KV put() metadata must be valid JSON.`},
		{"value too large", put("k", make([]byte, MaxValueSize+1), PutOptions{}), 413, false, `KV PUT failed: 413 Value length of 26214401 exceeds limit of 26214400.`},
		{"key checked before ttl", put("", nil, PutOptions{ExpirationTTL: 1}), 400, true, `Key name cannot be empty.`},
		{"ttl checked before metadata", put("k", nil, PutOptions{ExpirationTTL: 1, Metadata: bigMeta}), 400, false, `KV PUT failed: 400 Invalid expiration_ttl of 1. Expiration TTL must be at least 60.`},
		{"list limit too large", list(ListOptions{Limit: 1001}), 400, false, `KV GET failed: 400 Invalid key_count_limit of 1001. Please specify an integer less than 1000.`},
		{"list prefix too long", list(ListOptions{Prefix: long}), 414, false, `KV GET failed: 414 UTF-8 encoded length of 513 exceeds key length limit of 512.`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ns := openNS(t, t.TempDir(), clock)
			err := tt.call(ns)
			var kvErr *Error
			require.True(t, errors.As(err, &kvErr), "got %v", err)
			assert.Equal(t, tt.status, kvErr.Status)
			assert.Equal(t, tt.typeError, kvErr.TypeError)
			assert.Equal(t, tt.message, kvErr.Message)
			assert.Equal(t, "kv: "+tt.message, err.Error())
			list, lerr := ns.List(ctx, ListOptions{})
			require.NoError(t, lerr)
			assert.Empty(t, list.Keys, "a refused put stores nothing")
		})
	}
}

func TestLimitsAccepted(t *testing.T) {
	clock := newClock()
	tests := []struct {
		name  string
		key   string
		value []byte
		opts  PutOptions
	}{
		{"512 byte key", strings.Repeat("k", 512), nil, PutOptions{}},
		{"ttl 60", "k", nil, PutOptions{ExpirationTTL: 60}},
		{"expiration now+60", "k", nil, PutOptions{Expiration: clock.Unix() + 60}},
		{"1024 byte metadata", "k", nil, PutOptions{Metadata: json.RawMessage(`"` + strings.Repeat("m", 1022) + `"`)}},
		{"25 MiB value", "k", make([]byte, MaxValueSize), PutOptions{}},
		{"key of dots", "...", nil, PutOptions{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ns := openNS(t, t.TempDir(), clock)
			require.NoError(t, ns.Put(ctx, tt.key, tt.value, tt.opts))
			_, ok, err := ns.Get(ctx, tt.key)
			require.NoError(t, err)
			assert.True(t, ok)
		})
	}
	ns := openNS(t, t.TempDir(), clock)
	_, err := ns.List(ctx, ListOptions{Limit: 1000})
	require.NoError(t, err)
	_, err = ns.List(ctx, ListOptions{Limit: -3})
	require.NoError(t, err, "a limit below 1 is not sent by workerd")
}

func TestCancelledContext(t *testing.T) {
	ns := openNS(t, t.TempDir(), newClock())
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	require.ErrorIs(t, ns.Put(cctx, "k", nil, PutOptions{}), context.Canceled)
	_, _, err := ns.Get(cctx, "k")
	require.ErrorIs(t, err, context.Canceled)
	require.ErrorIs(t, ns.Delete(cctx, "k"), context.Canceled)
	_, err = ns.List(cctx, ListOptions{})
	require.ErrorIs(t, err, context.Canceled)
}

func TestOpenErrors(t *testing.T) {
	_, err := Open("")
	require.Error(t, err)
	_, err = OpenWithConfig(t.TempDir(), NewConfig().WithClock(nil))
	require.Error(t, err)
}

func TestConcurrentPuts(t *testing.T) {
	ns := openNS(t, t.TempDir(), newClock())
	var wg sync.WaitGroup
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			key := fmt.Sprintf("k%02d", i)
			assert.NoError(t, ns.Put(ctx, key, []byte(key), PutOptions{}))
			_, ok, err := ns.Get(ctx, key)
			assert.NoError(t, err)
			assert.True(t, ok)
		}(i)
	}
	wg.Wait()
	res, err := ns.List(ctx, ListOptions{})
	require.NoError(t, err)
	assert.Len(t, res.Keys, 16)
}

func names(res ListResult) []string {
	out := []string{}
	for _, k := range res.Keys {
		out = append(out, k.Name)
	}
	return out
}
