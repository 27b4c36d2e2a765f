package r2

import (
	"context"
	"crypto/md5"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var (
	ctx = context.Background()
	t0  = time.Date(2026, 11, 23, 12, 0, 0, 123_000_000, time.UTC)
)

// countingRand gives version ids 1, 2, 3, ... (big-endian, zero padded) so
// versions are the same every run.
type countingRand struct {
	mu sync.Mutex
	n  uint64
}

func (r *countingRand) Read(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.n++
	clear(p)
	binary.BigEndian.PutUint64(p[:min(8, len(p))], r.n)
	return len(p), nil
}

type testBucket struct {
	*Bucket
	now *time.Time
	dir string
}

func openBucket(t *testing.T) testBucket { return openBucketLog(t, os.Stderr) }

// openBucketLog is openBucket with the lines about damaged files on log.
func openBucketLog(t *testing.T, log io.Writer) testBucket {
	t.Helper()
	now := t0
	dir := t.TempDir()
	b, err := OpenWithConfig(dir, NewConfig().WithClock(func() time.Time { return now }).WithRand(&countingRand{}).WithLog(log))
	require.NoError(t, err)
	return testBucket{Bucket: b, now: &now, dir: dir}
}

func (tb testBucket) put(t *testing.T, key, body string, opts PutOptions) *Object {
	t.Helper()
	obj, err := tb.Put(ctx, key, []byte(body), opts)
	require.NoError(t, err)
	require.NotNil(t, obj)
	return obj
}

func i64(v int64) *int64 { return &v }

func md5hex(s string) string {
	sum := md5.Sum([]byte(s))
	return hex.EncodeToString(sum[:])
}

func TestPutGetHeadDelete(t *testing.T) {
	tb := openBucket(t)
	expiry := t0.Add(time.Hour)
	put := tb.put(t, "emoji/cat.svg", "<svg/>", PutOptions{
		HTTPMetadata:   HTTPMetadata{ContentType: "image/svg+xml", CacheControl: "max-age=60", CacheExpiry: &expiry},
		CustomMetadata: map[string]string{"license": "CC-BY-4.0"},
	})
	want := &Object{
		Key:            "emoji/cat.svg",
		Version:        "00000000000000010000000000000000",
		Size:           6,
		ETag:           md5hex("<svg/>"),
		HTTPETag:       `"` + md5hex("<svg/>") + `"`,
		Uploaded:       t0.Truncate(time.Millisecond),
		HTTPMetadata:   HTTPMetadata{ContentType: "image/svg+xml", CacheControl: "max-age=60", CacheExpiry: &expiry},
		CustomMetadata: map[string]string{"license": "CC-BY-4.0"},
	}
	assert.Equal(t, want, put)

	got, body, err := tb.Get(ctx, "emoji/cat.svg", GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, "<svg/>", string(body))
	want.Range = &Range{Offset: i64(0), Length: i64(6)}
	assert.Equal(t, want, got)

	head, err := tb.Head(ctx, "emoji/cat.svg")
	require.NoError(t, err)
	assert.Equal(t, want, head)

	require.NoError(t, tb.Delete(ctx, "emoji/cat.svg", "never-existed"))
	got, body, err = tb.Get(ctx, "emoji/cat.svg", GetOptions{})
	require.NoError(t, err)
	assert.Nil(t, got)
	assert.Nil(t, body)
	head, err = tb.Head(ctx, "emoji/cat.svg")
	require.NoError(t, err)
	assert.Nil(t, head)
	blobs, err := os.ReadDir(filepath.Join(tb.dir, "blobs"))
	require.NoError(t, err)
	assert.Empty(t, blobs, "delete removes the body")
}

func TestEmptyBodyIsNotNil(t *testing.T) {
	tb := openBucket(t)
	tb.put(t, "empty", "", PutOptions{})
	obj, body, err := tb.Get(ctx, "empty", GetOptions{})
	require.NoError(t, err)
	require.NotNil(t, obj)
	assert.NotNil(t, body)
	assert.Empty(t, body)
	assert.Equal(t, md5hex(""), obj.ETag)
}

func TestOverwriteReplacesBodyAndVersion(t *testing.T) {
	tb := openBucket(t)
	first := tb.put(t, "k", "one", PutOptions{CustomMetadata: map[string]string{"a": "1"}})
	*tb.now = t0.Add(time.Second)
	second := tb.put(t, "k", "two!", PutOptions{})
	assert.NotEqual(t, first.Version, second.Version)
	obj, body, err := tb.Get(ctx, "k", GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, "two!", string(body))
	assert.Equal(t, map[string]string{}, obj.CustomMetadata, "metadata is replaced, not merged")
	assert.Equal(t, t0.Add(time.Second).Truncate(time.Millisecond), obj.Uploaded)
	blobs, err := os.ReadDir(filepath.Join(tb.dir, "blobs"))
	require.NoError(t, err)
	assert.Len(t, blobs, 1, "the old body is removed")
}

func TestPersistenceAcrossReopen(t *testing.T) {
	tb := openBucket(t)
	put := tb.put(t, "a/1.png", "\x89PNG", PutOptions{HTTPMetadata: HTTPMetadata{ContentType: "image/png"}})
	tb.put(t, "b", "bee", PutOptions{})

	reopened, err := OpenWithConfig(tb.dir, NewConfig().WithClock(func() time.Time { return t0 }))
	require.NoError(t, err)
	obj, body, err := reopened.Get(ctx, "a/1.png", GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, "\x89PNG", string(body))
	put.Range = obj.Range
	assert.Equal(t, put, obj)
	list, err := reopened.List(ctx, ListOptions{})
	require.NoError(t, err)
	assert.Equal(t, []string{"a/1.png", "b"}, keysOf(list))
	// The body is stored byte for byte.
	raw, err := os.ReadFile(filepath.Join(tb.dir, "blobs", put.Version))
	require.NoError(t, err)
	assert.Equal(t, "\x89PNG", string(raw))
}

func TestOpenRemovesOrphanBodies(t *testing.T) {
	tb := openBucket(t)
	obj := tb.put(t, "kept", "body", PutOptions{})
	orphan := filepath.Join(tb.dir, "blobs", "deadbeef")
	require.NoError(t, os.WriteFile(orphan, []byte("crash leftover"), 0o644))

	_, err := Open(tb.dir)
	require.NoError(t, err)
	_, err = os.Stat(orphan)
	assert.True(t, os.IsNotExist(err))
	_, err = os.Stat(filepath.Join(tb.dir, "blobs", obj.Version))
	assert.NoError(t, err, "referenced bodies stay")
}

func TestOpenErrors(t *testing.T) {
	_, err := OpenWithConfig("", NewConfig().WithClock(nil).WithRand(nil))
	require.Error(t, err)
	for _, want := range []string{"WithClock", "WithRand", "empty directory"} {
		assert.Contains(t, err.Error(), want, "all problems are reported at once")
	}
}

func TestRandomFailureAndRepeats(t *testing.T) {
	tb := openBucket(t)
	tb.rand = strings.NewReader("")
	_, err := tb.Put(ctx, "k", nil, PutOptions{})
	require.Error(t, err)

	tb.rand = strings.NewReader(strings.Repeat("x", 32))
	_, err = tb.Put(ctx, "a", nil, PutOptions{})
	require.NoError(t, err)
	_, err = tb.Put(ctx, "b", nil, PutOptions{})
	require.ErrorContains(t, err, "already exists", "a repeated version must not clobber another object")
}

func TestValidationErrors(t *testing.T) {
	long := strings.Repeat("k", 1025)
	bigCustom := map[string]string{"k": strings.Repeat("v", 2048)}           // 2049
	wideCustom := map[string]string{"k": strings.Repeat("é", 1024)}          // (1 + 1024), é < 256: 1025
	doubledCustom := map[string]string{"k": "ā" + strings.Repeat("v", 1023)} // 1 + 1024*2 = 2049
	type call func(tb testBucket) error
	put := func(key string, opts PutOptions) call {
		return func(tb testBucket) error { _, err := tb.Put(ctx, key, []byte("body"), opts); return err }
	}
	get := func(key string, opts GetOptions) call {
		return func(tb testBucket) error { _, _, err := tb.Get(ctx, key, opts); return err }
	}
	list := func(opts ListOptions) call {
		return func(tb testBucket) error { _, err := tb.List(ctx, opts); return err }
	}
	wrongMD5 := md5.Sum([]byte("other"))

	tests := []struct {
		name    string
		call    call
		status  int
		code    int
		jsType  string
		message string // as JS sees it
	}{
		{"put long key", put(long, PutOptions{}), 400, 10020, "R2Error", "put: The specified object name is not valid. (10020)"},
		{"get long key", get(long, GetOptions{}), 400, 10020, "R2Error", "get: The specified object name is not valid. (10020)"},
		{"head long key", func(tb testBucket) error { _, err := tb.Head(ctx, long); return err }, 400, 10020, "R2Error", "head: The specified object name is not valid. (10020)"},
		{"delete long key", func(tb testBucket) error { return tb.Delete(ctx, "ok", long) }, 400, 10020, "R2Error", "delete: The specified object name is not valid. (10020)"},
		{"custom metadata too large", put("k", PutOptions{CustomMetadata: bigCustom}), 400, 10012, "R2Error", "put: Your metadata headers exceed the maximum allowed metadata size. (10012)"},
		{"wide characters doubled", put("k", PutOptions{CustomMetadata: doubledCustom}), 400, 10012, "R2Error", "put: Your metadata headers exceed the maximum allowed metadata size. (10012)"},
		{"md5 wrong length", put("k", PutOptions{MD5: []byte{1, 2}}), 0, 0, "TypeError", "MD5 is 16 bytes, not 2"},
		{"md5 mismatch", put("k", PutOptions{MD5: wrongMD5[:]}), 400, 10037, "R2Error",
			"put: The MD5 checksum you specified did not match what we received.\nYou provided a MD5 checksum with value: " +
				hex.EncodeToString(wrongMD5[:]) + "\nActual MD5 was: " + md5hex("body") + " (10037)"},
		{"list limit negative", list(ListOptions{Limit: -1}), 400, 10022, "R2Error", "list: MaxKeys params must be positive integer <= 1000. (10022)"},
		{"list limit too large", list(ListOptions{Limit: 1001}), 400, 10022, "R2Error", "list: MaxKeys params must be positive integer <= 1000. (10022)"},
		{"list bad include", list(ListOptions{Include: []string{"body"}}), 0, 0, "RangeError", "Unsupported include value body"},
		{"negative offset", get("k", GetOptions{Range: &Range{Offset: i64(-1)}}), 0, 0, "RangeError", "Invalid range. Starting offset (-1) must be greater than or equal to 0."},
		{"negative length", get("k", GetOptions{Range: &Range{Length: i64(-2)}}), 0, 0, "RangeError", "Invalid range. Length (-2) must be greater than or equal to 0."},
		{"suffix with offset", get("k", GetOptions{Range: &Range{Offset: i64(0), Suffix: i64(1)}}), 0, 0, "TypeError", "Suffix is incompatible with offset."},
		{"suffix with length", get("k", GetOptions{Range: &Range{Length: i64(1), Suffix: i64(1)}}), 0, 0, "TypeError", "Suffix is incompatible with length."},
		{"negative suffix", get("k", GetOptions{Range: &Range{Suffix: i64(-3)}}), 0, 0, "RangeError", "Invalid suffix. Suffix (-3) must be greater than or equal to 0."},
		{"range checked on missing object too", get("missing", GetOptions{Range: &Range{Offset: i64(-1)}}), 0, 0, "RangeError", "Invalid range. Starting offset (-1) must be greater than or equal to 0."},
		{"zero suffix", get("k", GetOptions{Range: &Range{Suffix: i64(0)}}), 416, 10039, "R2Error", "get: The requested range is not satisfiable (10039)"},
		{"offset past end", get("k", GetOptions{Range: &Range{Offset: i64(5)}}), 416, 10039, "R2Error", "get: The requested range is not satisfiable (10039)"},
		{"offset at end, no length", get("k", GetOptions{Range: &Range{Offset: i64(4)}}), 416, 10039, "R2Error", "get: The requested range is not satisfiable (10039)"},
		{"zero length", get("k", GetOptions{Range: &Range{Length: i64(0)}}), 416, 10039, "R2Error", "get: The requested range is not satisfiable (10039)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tb := openBucket(t)
			tb.put(t, "k", "body", PutOptions{})
			err := tt.call(tb)
			r2err := asR2Error(t, err)
			assert.Equal(t, tt.status, r2err.Status)
			assert.Equal(t, tt.code, r2err.Code)
			assert.Equal(t, tt.jsType, r2err.JSType)
			assert.Equal(t, tt.message, r2err.JSMessage())
			assert.Equal(t, "r2: "+tt.message, err.Error())
			obj, body, err := tb.Get(ctx, "k", GetOptions{})
			require.NoError(t, err)
			assert.Equal(t, "body", string(body), "a refused call changes nothing")
			assert.Equal(t, md5hex("body"), obj.ETag)
		})
	}
	// Sizes at the limit pass.
	tb := openBucket(t)
	tb.put(t, strings.Repeat("k", 1024), "x", PutOptions{})
	tb.put(t, "m", "x", PutOptions{CustomMetadata: map[string]string{"k": strings.Repeat("v", 2047)}})
	tb.put(t, "w", "x", PutOptions{CustomMetadata: wideCustom})
	ok := md5.Sum([]byte("x"))
	tb.put(t, "sum", "x", PutOptions{MD5: ok[:]})
}

func TestEntityTooLarge(t *testing.T) {
	// A 5 GiB body is too big for a test; the size check takes the length.
	err := validatePut("k", MaxValueSize+1, PutOptions{}, nil)
	assert.Equal(t, "put: Your proposed upload exceeds the maximum allowed object size. (100100)", asR2Error(t, err).JSMessage())
	assert.NoError(t, validatePut("k", MaxValueSize, PutOptions{}, nil))
}

func TestMetadataSize(t *testing.T) {
	tests := []struct {
		m    map[string]string
		want int
	}{
		{nil, 0},
		{map[string]string{"ab": "cde"}, 5},
		{map[string]string{"k": "é"}, 2}, // U+00E9 < 256: one unit each
		{map[string]string{"k": "ā"}, 3}, // U+0101 >= 256: value doubled
		{map[string]string{"😀": "v"}, 5}, // surrogate pair: 2 units, doubled; "v" 1
		{map[string]string{"a": "1", "b": "22"}, 5},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, metadataSize(tt.m), fmt.Sprint(tt.m))
	}
}

func TestRanges(t *testing.T) {
	const body = "0123456789"
	tests := []struct {
		name      string
		opts      GetOptions
		want      string
		offset    int64
		rangeSize int64
	}{
		{"whole", GetOptions{}, body, 0, 10},
		{"offset and length", GetOptions{Range: &Range{Offset: i64(2), Length: i64(3)}}, "234", 2, 3},
		{"offset only", GetOptions{Range: &Range{Offset: i64(7)}}, "789", 7, 3},
		{"length only", GetOptions{Range: &Range{Length: i64(4)}}, "0123", 0, 4},
		{"length clamped", GetOptions{Range: &Range{Offset: i64(8), Length: i64(50)}}, "89", 8, 2},
		{"offset at end with length", GetOptions{Range: &Range{Offset: i64(10), Length: i64(5)}}, "", 10, 0},
		{"suffix", GetOptions{Range: &Range{Suffix: i64(3)}}, "789", 7, 3},
		{"suffix longer than object", GetOptions{Range: &Range{Suffix: i64(50)}}, body, 0, 10},
		{"empty range object", GetOptions{Range: &Range{}}, body, 0, 10},
		{"header", GetOptions{RangeHeader: "bytes=1-3"}, "123", 1, 3},
		{"header suffix", GetOptions{RangeHeader: "bytes=-2"}, "89", 8, 2},
		{"header open end", GetOptions{RangeHeader: "bytes=6-"}, "6789", 6, 4},
		{"header wins over range", GetOptions{RangeHeader: "bytes=0-0", Range: &Range{Suffix: i64(2)}}, "0", 0, 1},
		{"header with two ranges serves all", GetOptions{RangeHeader: "bytes=0-1,3-4"}, body, 0, 10},
		{"unsatisfiable header serves all", GetOptions{RangeHeader: "bytes=20-30"}, body, 0, 10},
		{"garbage header serves all", GetOptions{RangeHeader: "lines=1"}, body, 0, 10},
	}
	tb := openBucket(t)
	tb.put(t, "digits", body, PutOptions{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			obj, got, err := tb.Get(ctx, "digits", tt.opts)
			require.NoError(t, err)
			assert.Equal(t, tt.want, string(got))
			assert.Equal(t, &Range{Offset: i64(tt.offset), Length: i64(tt.rangeSize)}, obj.Range)
			assert.Equal(t, int64(10), obj.Size, "size is the whole object")
		})
	}
}

func TestRangeOnEmptyObject(t *testing.T) {
	tb := openBucket(t)
	tb.put(t, "empty", "", PutOptions{})
	_, _, err := tb.Get(ctx, "empty", GetOptions{Range: &Range{Suffix: i64(1)}})
	assert.Equal(t, CodeInvalidRange, asR2Error(t, err).Code)
}

func TestConcurrentConditionalPuts(t *testing.T) {
	// Many writers race to create the same key with If-None-Match: *; the
	// check and the write are one step, so exactly one wins.
	tb := openBucket(t)
	var wg sync.WaitGroup
	var mu sync.Mutex
	wins := 0
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			obj, err := tb.Put(ctx, "lock", []byte(fmt.Sprint(i)), PutOptions{
				OnlyIf: &Conditional{ETagDoesNotMatch: []ETag{{Wildcard: true}}},
			})
			assert.NoError(t, err)
			if obj != nil {
				mu.Lock()
				wins++
				mu.Unlock()
			}
		}(i)
	}
	wg.Wait()
	assert.Equal(t, 1, wins)
}

func TestCancelledContext(t *testing.T) {
	tb := openBucket(t)
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	_, err := tb.Put(cctx, "k", nil, PutOptions{})
	assert.ErrorIs(t, err, context.Canceled)
	_, _, err = tb.Get(cctx, "k", GetOptions{})
	assert.ErrorIs(t, err, context.Canceled)
	_, err = tb.Head(cctx, "k")
	assert.ErrorIs(t, err, context.Canceled)
	assert.ErrorIs(t, tb.Delete(cctx, "k"), context.Canceled)
	_, err = tb.List(cctx, ListOptions{})
	assert.ErrorIs(t, err, context.Canceled)
}

// asR2Error fails the test unless err is an *Error, and returns it.
func asR2Error(t *testing.T, err error) *Error {
	t.Helper()
	var r2err *Error
	require.True(t, errors.As(err, &r2err), "got %v", err)
	return r2err
}

func keysOf(res ListResult) []string {
	out := []string{}
	for _, o := range res.Objects {
		out = append(out, o.Key)
	}
	return out
}

// A lost or short body, or metadata that does not decode, makes the object
// absent with a log line, at open or at the first read, instead of an
// error every reader retries (issue 31); the other objects are untouched.
func TestDamagedObjectsAreQuarantined(t *testing.T) {
	damage := map[string]func(tb testBucket, obj *Object){
		"lost body": func(tb testBucket, obj *Object) {
			require.NoError(t, os.Remove(filepath.Join(tb.dir, "blobs", obj.Version)))
		},
		"short body": func(tb testBucket, obj *Object) {
			require.NoError(t, os.WriteFile(filepath.Join(tb.dir, "blobs", obj.Version), []byte("x"), 0o644))
		},
		"metadata not json": func(tb testBucket, obj *Object) {
			path := filepath.Join(tb.dir, "objects", entryName(t, tb, obj.Key))
			require.NoError(t, os.WriteFile(path, []byte(`{"v":1,"key":"hurt","metadata":"not an object"}`+"\n"), 0o644))
		},
		"entry file empty": func(tb testBucket, obj *Object) {
			require.NoError(t, os.WriteFile(filepath.Join(tb.dir, "objects", entryName(t, tb, obj.Key)), nil, 0o644))
		},
	}
	for name, hurt := range damage {
		for _, reopen := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/reopen=%v", name, reopen), func(t *testing.T) {
				var log strings.Builder
				tb := openBucketLog(t, &log)
				tb.put(t, "fine", "fine body", PutOptions{})
				hurt(tb, tb.put(t, "hurt", "hurt body", PutOptions{}))
				b := tb.Bucket
				if reopen {
					var err error
					b, err = OpenWithConfig(tb.dir, NewConfig().WithLog(&log))
					require.NoError(t, err, "a damaged object never stops the bucket from opening")
				}
				obj, body, err := b.Get(ctx, "hurt", GetOptions{})
				require.NoError(t, err)
				assert.Nil(t, obj)
				assert.Nil(t, body)
				assert.Contains(t, log.String(), "quarantined")
				list, err := b.List(ctx, ListOptions{})
				require.NoError(t, err)
				assert.Equal(t, []string{"fine"}, keysOf(list))
				_, body, err = b.Get(ctx, "fine", GetOptions{})
				require.NoError(t, err)
				assert.Equal(t, "fine body", string(body))
			})
		}
	}
}

func entryName(t *testing.T, tb testBucket, key string) string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(tb.dir, "objects"))
	require.NoError(t, err)
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(tb.dir, "objects", e.Name()))
		require.NoError(t, err)
		if strings.Contains(string(b), `"key":"`+key+`"`) {
			return e.Name()
		}
	}
	t.Fatalf("no entry for %q", key)
	return ""
}
