package r2

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func timePtr(t time.Time) *time.Time { return &t }

// uploaded is the stored object's upload time in these tests: t0 (which has
// 123 ms past the second).
func TestConditionalOnGetAndPut(t *testing.T) {
	etag := md5hex("body")
	strong := func(v string) []ETag { return []ETag{{Value: v}} }
	weak := func(v string) []ETag { return []ETag{{Value: v, Weak: true}} }
	wildcard := []ETag{{Wildcard: true}}
	sameSecond := t0.Truncate(time.Second) // before t0 by 123 ms, same second

	tests := []struct {
		name  string
		cond  Conditional
		holds bool
	}{
		{"empty conditional", Conditional{}, true},
		{"etagMatches equal", Conditional{ETagMatches: strong(etag)}, true},
		{"etagMatches other", Conditional{ETagMatches: strong("nope")}, false},
		{"etagMatches one of many", Conditional{ETagMatches: []ETag{{Value: "a"}, {Value: etag}}}, true},
		{"etagMatches wildcard", Conditional{ETagMatches: wildcard}, true},
		{"etagMatches weak never matches (strong comparison)", Conditional{ETagMatches: weak(etag)}, false},
		{"etagDoesNotMatch other", Conditional{ETagDoesNotMatch: strong("nope")}, true},
		{"etagDoesNotMatch equal", Conditional{ETagDoesNotMatch: strong(etag)}, false},
		{"etagDoesNotMatch weak equal (weak comparison)", Conditional{ETagDoesNotMatch: weak(etag)}, false},
		{"etagDoesNotMatch wildcard", Conditional{ETagDoesNotMatch: wildcard}, false},
		{"uploadedAfter earlier", Conditional{UploadedAfter: timePtr(t0.Add(-time.Hour))}, true},
		{"uploadedAfter same instant", Conditional{UploadedAfter: timePtr(t0)}, false},
		{"uploadedAfter later", Conditional{UploadedAfter: timePtr(t0.Add(time.Hour))}, false},
		{"uploadedAfter same second, ms granularity", Conditional{UploadedAfter: timePtr(sameSecond)}, true},
		{"uploadedAfter same second, seconds granularity", Conditional{UploadedAfter: timePtr(sameSecond), SecondsGranularity: true}, false},
		{"uploadedBefore later", Conditional{UploadedBefore: timePtr(t0.Add(time.Hour))}, true},
		{"uploadedBefore same instant", Conditional{UploadedBefore: timePtr(t0)}, false},
		{"uploadedBefore earlier", Conditional{UploadedBefore: timePtr(t0.Add(-time.Hour))}, false},
		{"uploadedBefore next second, seconds granularity", Conditional{UploadedBefore: timePtr(sameSecond.Add(999 * time.Millisecond)), SecondsGranularity: true}, false},
		// RFC 7232 section 6: a passing If-Match makes If-Unmodified-Since moot,
		// a passing If-None-Match makes If-Modified-Since moot.
		{"etagMatches overrides uploadedBefore", Conditional{ETagMatches: strong(etag), UploadedBefore: timePtr(t0.Add(-time.Hour))}, true},
		{"failing etagMatches does not", Conditional{ETagMatches: strong("x"), UploadedBefore: timePtr(t0.Add(time.Hour))}, false},
		{"etagDoesNotMatch overrides uploadedAfter", Conditional{ETagDoesNotMatch: strong("x"), UploadedAfter: timePtr(t0.Add(time.Hour))}, true},
		{"failing etagDoesNotMatch does not", Conditional{ETagDoesNotMatch: strong(etag), UploadedAfter: timePtr(t0.Add(-time.Hour))}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tb := openBucket(t)
			tb.put(t, "k", "body", PutOptions{})

			cond := tt.cond
			obj, body, err := tb.Get(ctx, "k", GetOptions{OnlyIf: &cond, Range: &Range{Suffix: i64(2)}})
			require.NoError(t, err)
			require.NotNil(t, obj, "get returns the object either way")
			if tt.holds {
				assert.Equal(t, "dy", string(body))
				assert.Equal(t, &Range{Offset: i64(2), Length: i64(2)}, obj.Range)
			} else {
				assert.Nil(t, body, "no body when the precondition fails")
				assert.Equal(t, &Range{Offset: i64(0), Length: i64(4)}, obj.Range)
			}

			*tb.now = t0.Add(time.Minute)
			put, err := tb.Put(ctx, "k", []byte("new"), PutOptions{OnlyIf: &cond})
			require.NoError(t, err)
			_, body, err = tb.Get(ctx, "k", GetOptions{})
			require.NoError(t, err)
			if tt.holds {
				require.NotNil(t, put)
				assert.Equal(t, "new", string(body))
			} else {
				assert.Nil(t, put, "put returns null when the precondition fails")
				assert.Equal(t, "body", string(body))
			}
		})
	}
}

func TestConditionalPutOnMissingKey(t *testing.T) {
	tests := []struct {
		name  string
		cond  Conditional
		holds bool
	}{
		{"etagDoesNotMatch wildcard creates", Conditional{ETagDoesNotMatch: []ETag{{Wildcard: true}}}, true},
		{"etagMatches wildcard needs an object", Conditional{ETagMatches: []ETag{{Wildcard: true}}}, false},
		{"uploadedAfter needs an object", Conditional{UploadedAfter: timePtr(t0)}, false},
		{"uploadedBefore does not", Conditional{UploadedBefore: timePtr(t0)}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tb := openBucket(t)
			cond := tt.cond
			obj, err := tb.Put(ctx, "new", []byte("x"), PutOptions{OnlyIf: &cond})
			require.NoError(t, err)
			assert.Equal(t, tt.holds, obj != nil)
		})
	}
}

func TestGetWithConditionOnMissingKey(t *testing.T) {
	tb := openBucket(t)
	obj, body, err := tb.Get(ctx, "missing", GetOptions{OnlyIf: &Conditional{ETagMatches: []ETag{{Value: "x"}}}})
	require.NoError(t, err)
	assert.Nil(t, obj)
	assert.Nil(t, body)
}

func TestConditionalETag(t *testing.T) {
	tests := []struct {
		value string
		want  []ETag
		err   string
	}{
		{"abc", []ETag{{Value: "abc"}}, ""},
		{"*", []ETag{{Wildcard: true}}, ""},
		{`"abc"`, nil, `Conditional ETag should not be wrapped in quotes ("abc").`},
		{`"`, nil, `Conditional ETag should not be wrapped in quotes (").`},
		{`W/"abc"`, []ETag{{Value: `W/"abc"`}}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.value, func(t *testing.T) {
			got, err := ConditionalETag(tt.value)
			if tt.err == "" {
				require.NoError(t, err)
				assert.Equal(t, tt.want, got)
				return
			}
			r2err := asR2Error(t, err)
			assert.Equal(t, "TypeError", r2err.JSType)
			assert.Equal(t, tt.err, r2err.JSMessage())
		})
	}
}

func TestParseConditionalHeaders(t *testing.T) {
	date := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	httpDate := date.Format(http.TimeFormat)
	tests := []struct {
		name    string
		headers map[string]string
		want    *Conditional
		err     string
	}{
		{"none", nil, nil, ""},
		{"if-match strong", map[string]string{"If-Match": `"abc"`}, &Conditional{ETagMatches: []ETag{{Value: "abc"}}, SecondsGranularity: true}, ""},
		{"if-none-match list", map[string]string{"If-None-Match": `"a", W/"b",, "c,d"`},
			&Conditional{ETagDoesNotMatch: []ETag{{Value: "a"}, {Value: "b", Weak: true}, {Value: "c,d"}}, SecondsGranularity: true}, ""},
		{"wildcard replaces the list", map[string]string{"If-None-Match": `"a", *`},
			&Conditional{ETagDoesNotMatch: []ETag{{Wildcard: true}}, SecondsGranularity: true}, ""},
		{"unquoted text is ignored", map[string]string{"If-Match": `abc`}, nil, ""},
		{"dates", map[string]string{"If-Modified-Since": httpDate, "If-Unmodified-Since": httpDate},
			&Conditional{UploadedAfter: &date, UploadedBefore: &date, SecondsGranularity: true}, ""},
		{"missing comma", map[string]string{"If-Match": `"a" "b"`}, nil,
			`Comma was expected to separate etags. Encountered a double quote character '"' instead. This would otherwise indicate the start of a new strong etag.`},
		{"missing comma before wildcard", map[string]string{"If-Match": `"a" *`}, nil,
			`Comma was expected to separate etags. Encountered a wildcard character '*' instead.`},
		{"missing comma before weak", map[string]string{"If-Match": `"a" W/"b"`}, nil,
			`Comma was expected to separate etags. Encountered a weak quotation character 'W' instead. This would otherwise indicate the start of a new weak etag.`},
		{"unclosed quote", map[string]string{"If-Match": `"abc`}, nil, `Unclosed double quote for Etag`},
		{"bad weak syntax", map[string]string{"If-None-Match": `W"abc"`}, nil, `Weak etags must start with W/ and their value must be quoted`},
		{"bad date", map[string]string{"If-Modified-Since": "yesterday"}, nil, `Invalid date in If-Modified-Since header: "yesterday"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := http.Header{}
			for k, v := range tt.headers {
				h.Set(k, v)
			}
			got, err := ParseConditionalHeaders(h)
			if tt.err == "" {
				require.NoError(t, err)
				assert.Equal(t, tt.want, got)
				return
			}
			assert.Equal(t, tt.err, asR2Error(t, err).JSMessage())
		})
	}
}

func TestHeaderConditionalsOnGet(t *testing.T) {
	// The If-None-Match / 304 flow a worker builds from request headers.
	tb := openBucket(t)
	obj := tb.put(t, "k", "body", PutOptions{})
	tests := []struct {
		name     string
		headers  http.Header
		wantBody bool
	}{
		{"matching if-none-match", http.Header{"If-None-Match": {obj.HTTPETag}}, false},
		{"other if-none-match", http.Header{"If-None-Match": {`"other"`}}, true},
		{"if-modified-since same second", http.Header{"If-Modified-Since": {t0.Format(http.TimeFormat)}}, false},
		{"if-modified-since earlier", http.Header{"If-Modified-Since": {t0.Add(-time.Second).Format(http.TimeFormat)}}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cond, err := ParseConditionalHeaders(tt.headers)
			require.NoError(t, err)
			_, body, err := tb.Get(ctx, "k", GetOptions{OnlyIf: cond})
			require.NoError(t, err)
			assert.Equal(t, tt.wantBody, body != nil)
		})
	}
}
