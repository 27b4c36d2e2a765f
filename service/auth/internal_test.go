package auth

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFlexBool(t *testing.T) {
	for _, tc := range []struct {
		json string
		want bool
	}{
		{`true`, true},
		{`"true"`, true},
		{`false`, false},
		{`"false"`, false},
		{`null`, false},
		{`"TRUE"`, false},
		{`"yes"`, false},
		{`1`, false},
		{`{}`, false},
	} {
		t.Run(tc.json, func(t *testing.T) {
			var v struct {
				B flexBool `json:"b"`
			}
			require.NoError(t, json.Unmarshal([]byte(`{"b":`+tc.json+`}`), &v))
			assert.Equal(t, tc.want, bool(v.B))
		})
	}
}

func TestNormalizePEM(t *testing.T) {
	const want = "-----BEGIN PUBLIC KEY-----\n" +
		"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\n" +
		"BBBB\n" +
		"-----END PUBLIC KEY-----\n"
	body := "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAABBBB"
	for name, in := range map[string]string{
		"one line":        "-----BEGIN PUBLIC KEY----- " + body + " -----END PUBLIC KEY-----",
		"literal newline": `-----BEGIN PUBLIC KEY-----\n` + body[:10] + `\n` + body[10:] + `\n-----END PUBLIC KEY-----\n`,
		"canonical":       want,
		"CRLF":            "-----BEGIN PUBLIC KEY-----\r\n" + body + "\r\n-----END PUBLIC KEY-----\r\n",
	} {
		t.Run(name, func(t *testing.T) {
			assert.Equal(t, want, normalizePEM(in))
		})
	}
	for _, in := range []string{"", "no pem", "-----BEGIN PUBLIC KEY----- AAAA", "-----BEGIN PUBLIC KEY"} {
		assert.Equal(t, in, normalizePEM(in))
	}
}

func TestIsDevHost(t *testing.T) {
	for host, want := range map[string]bool{
		"localhost": true, "localhost:8787": true, "LocalHost": true, "127.0.0.1": true, "127.0.0.1:1": true,
		"[::1]": true, "[::1]:8787": true, "::1": true,
		"": false, "localhost.": false, "foo.localhost": false, "127.0.0.2": false, "[::2]:1": false,
		"example.com": false, "localhost.example.com:8787": false, "0.0.0.0": false,
	} {
		assert.Equal(t, want, isDevHost(host), host)
	}
}
