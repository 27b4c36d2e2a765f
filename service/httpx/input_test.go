package httpx

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestJSONTextValid(t *testing.T) {
	cases := []struct {
		name, body string
		valid      bool
	}{
		{"plain", `{"q":"cat"}`, true},
		{"emoji raw", `{"q":"😀"}`, true},
		{"surrogate pair escaped", `{"q":"\ud83d\ude00"}`, true},
		{"upper-case hex", `{"q":"\uD83D\uDE00"}`, true},
		{"escaped quote then text", `{"q":"a\"b\\","r":"\u00e9"}`, true},
		{"backslash u outside a string is not checked", `{"q":1} \ud800`, true},
		{"malformed escape left to the decoder", `{"q":"\u12"}`, true},
		{"raw invalid byte", "{\"q\":\"\xff\"}", false},
		{"raw invalid byte in a name", "{\"\xc0\xaf\":1}", false},
		{"lone high surrogate", `{"q":"\ud800"}`, false},
		{"high surrogate then text", `{"q":"\ud800abcdef"}`, false},
		{"high then high", `{"q":"\ud800\ud800"}`, false},
		{"lone low surrogate", `{"q":"\udfff"}`, false},
		{"after an escaped backslash", `{"q":"\\\udc00"}`, false},
		{"high surrogate at the end", `{"q":"\ud800`, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.valid, jsonTextValid([]byte(c.body)))
		})
	}
}

func TestCheckQuery(t *testing.T) {
	cases := []struct {
		raw   string
		bad   bool
		field string
	}{
		{"q=cat&limit=5", false, ""},
		{"q=%F0%9F%98%80", false, ""},
		{"q=a+b;c", false, ""},
		{"&&q=", false, ""},
		{"q", false, ""},
		{"q=%ff%fe", true, "q"},
		{"limit=1&q=%zz", true, "q"},
		{"q=%", true, "q"},
		{"%ff=1", true, ""},
		{"%zz=1", true, ""},
		{"locale=%ed%a0%80", true, "locale"}, // an encoded surrogate is not UTF-8
	}
	for _, c := range cases {
		query, in, bad := checkQuery(c.raw)
		assert.Equal(t, c.bad, bad, c.raw)
		assert.Equal(t, c.field, in.Field, c.raw)
		if !bad {
			want, _ := url.ParseQuery(c.raw)
			assert.Equal(t, want, query, "%s: decoded as url.ParseQuery does", c.raw)
		}
	}
}

// Handlers behind the router read the query it decoded; without the
// router, Query decodes it itself.
func TestQueryDecodedOnce(t *testing.T) {
	raw := "q=caf%C3%A9+au+lait&x=1&x=2&bad;pair=1"
	want, _ := url.ParseQuery(raw)
	var got url.Values
	r := &Router{NotFound: NotFound(), BadMethod: MethodNotAllowed}
	r.HandleFunc(http.MethodGet, "/v1/x", func(_ http.ResponseWriter, req *http.Request) {
		got = Query(req)
		req.URL.RawQuery = "" // a later change of the URL is not read again
		got = Query(req)
	})
	r.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/v1/x?"+raw, nil))
	assert.Equal(t, want, got)
	assert.Equal(t, want, Query(httptest.NewRequest(http.MethodGet, "/v1/x?"+raw, nil)))
}
