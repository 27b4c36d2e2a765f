package httpx

import (
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
		in, bad := checkQuery(c.raw)
		assert.Equal(t, c.bad, bad, c.raw)
		assert.Equal(t, c.field, in.Field, c.raw)
	}
}
