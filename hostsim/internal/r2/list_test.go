package r2

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type page struct {
	objects  []string
	prefixes []string
}

func TestListPagination(t *testing.T) {
	tb := openBucket(t)
	for _, k := range []string{
		"emoji/animals/cat.svg", "emoji/animals/dog.svg", "emoji/faces/grin.svg",
		"emoji/index.json", "emoji/zz", "fonts/a.woff", "readme",
	} {
		tb.put(t, k, k, PutOptions{})
	}

	tests := []struct {
		name  string
		opts  ListOptions
		pages []page
	}{
		{"everything", ListOptions{}, []page{{objects: []string{
			"emoji/animals/cat.svg", "emoji/animals/dog.svg", "emoji/faces/grin.svg",
			"emoji/index.json", "emoji/zz", "fonts/a.woff", "readme"}}}},
		{"pages of three", ListOptions{Limit: 3}, []page{
			{objects: []string{"emoji/animals/cat.svg", "emoji/animals/dog.svg", "emoji/faces/grin.svg"}},
			{objects: []string{"emoji/index.json", "emoji/zz", "fonts/a.woff"}},
			{objects: []string{"readme"}},
		}},
		{"prefix", ListOptions{Prefix: "emoji/animals/"}, []page{{objects: []string{"emoji/animals/cat.svg", "emoji/animals/dog.svg"}}}},
		{"delimiter at the root", ListOptions{Delimiter: "/"}, []page{{objects: []string{"readme"}, prefixes: []string{"emoji/", "fonts/"}}}},
		{"delimiter under a prefix", ListOptions{Prefix: "emoji/", Delimiter: "/"}, []page{
			{objects: []string{"emoji/index.json", "emoji/zz"}, prefixes: []string{"emoji/animals/", "emoji/faces/"}},
		}},
		{"a group counts once and is never split", ListOptions{Prefix: "emoji/", Delimiter: "/", Limit: 1}, []page{
			{prefixes: []string{"emoji/animals/"}},
			{prefixes: []string{"emoji/faces/"}},
			{objects: []string{"emoji/index.json"}},
			{objects: []string{"emoji/zz"}},
		}},
		{"multi-character delimiter", ListOptions{Delimiter: "ni"}, []page{
			{objects: []string{"emoji/faces/grin.svg", "emoji/index.json", "emoji/zz", "fonts/a.woff", "readme"}, prefixes: []string{"emoji/ani"}},
		}},
		{"startAfter", ListOptions{StartAfter: "emoji/zz"}, []page{{objects: []string{"fonts/a.woff", "readme"}}}},
		{"startAfter between keys", ListOptions{StartAfter: "f"}, []page{{objects: []string{"fonts/a.woff", "readme"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := tt.opts
			for i, want := range tt.pages {
				res, err := tb.List(ctx, opts)
				require.NoError(t, err)
				assert.Equal(t, want.objects, nilIfEmpty(keysOf(res)), "page %d objects", i)
				assert.Equal(t, want.prefixes, nilIfEmpty(res.DelimitedPrefixes), "page %d prefixes", i)
				last := i == len(tt.pages)-1
				assert.Equal(t, !last, res.Truncated, "page %d truncated", i)
				assert.Equal(t, last, res.Cursor == "", "page %d cursor", i)
				opts.Cursor = res.Cursor
			}
		})
	}
}

func TestListCursorAndStartAfter(t *testing.T) {
	tb := openBucket(t)
	for _, k := range []string{"a", "b", "c", "d"} {
		tb.put(t, k, k, PutOptions{})
	}
	first, err := tb.List(ctx, ListOptions{Limit: 1})
	require.NoError(t, err)
	assert.Equal(t, "YQ==", first.Cursor, "cursor is base64 of the last key")

	tests := []struct {
		name       string
		cursor     string
		startAfter string
		want       []string
	}{
		{"cursor later than startAfter wins", first.Cursor, "", []string{"b", "c", "d"}},
		{"startAfter later than cursor wins", first.Cursor, "b", []string{"c", "d"}},
		{"cursor later than startAfter", "Yw==", "a", []string{"d"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := tb.List(ctx, ListOptions{Cursor: tt.cursor, StartAfter: tt.startAfter})
			require.NoError(t, err)
			assert.Equal(t, tt.want, keysOf(res))
		})
	}
}

func TestListInclude(t *testing.T) {
	tb := openBucket(t)
	meta := PutOptions{HTTPMetadata: HTTPMetadata{ContentType: "image/png"}, CustomMetadata: map[string]string{"a": "1"}}
	for i := 0; i < 150; i++ {
		tb.put(t, fmt.Sprintf("k%03d", i), "x", meta)
	}

	tests := []struct {
		name       string
		include    []string
		limit      int
		wantCount  int
		wantHTTP   HTTPMetadata
		wantCustom map[string]string
	}{
		{"no include", nil, 0, 150, HTTPMetadata{}, nil},
		{"http only, capped at 100", []string{"httpMetadata"}, 0, 100, HTTPMetadata{ContentType: "image/png"}, nil},
		{"custom only", []string{"customMetadata"}, 10, 10, HTTPMetadata{}, map[string]string{"a": "1"}},
		{"both", []string{"httpMetadata", "customMetadata"}, 1000, 100, HTTPMetadata{ContentType: "image/png"}, map[string]string{"a": "1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := tb.List(ctx, ListOptions{Include: tt.include, Limit: tt.limit})
			require.NoError(t, err)
			require.Len(t, res.Objects, tt.wantCount)
			assert.Equal(t, tt.wantCount < 150, res.Truncated)
			obj := res.Objects[0]
			assert.Equal(t, tt.wantHTTP, obj.HTTPMetadata)
			assert.Equal(t, tt.wantCustom, obj.CustomMetadata)
			assert.Nil(t, obj.Range, "listed objects carry no range")
			assert.Equal(t, md5hex("x"), obj.ETag)
			assert.Equal(t, int64(1), obj.Size)
		})
	}
}

func TestListEmptyBucket(t *testing.T) {
	tb := openBucket(t)
	res, err := tb.List(ctx, ListOptions{Delimiter: "/"})
	require.NoError(t, err)
	assert.Equal(t, ListResult{Objects: []*Object{}, DelimitedPrefixes: []string{}}, res)
}

func nilIfEmpty(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	return s
}
