// Package emojisetstest holds the checks of spec 1's GET
// /v1/sets/:set/:hexcode.svg answers, so the unit test (httptest, a small
// mapping) and the e2e test (real HTTP on hostsim and workerd, the real
// mapping) judge the same headers and error shapes.
package emojisetstest

import (
	"encoding/json"
	"net/http"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Licenses is each set's license, as its Link header names it.
var Licenses = map[string]string{
	"twemoji":  "https://creativecommons.org/licenses/by/4.0/",
	"openmoji": "https://creativecommons.org/licenses/by-sa/4.0/",
	"noto":     "https://www.apache.org/licenses/LICENSE-2.0",
}

// ErrorCase is a request the route refuses: the status and the error code.
type ErrorCase struct {
	Path   string
	Status int
	Code   string
}

// CheckFile asserts the headers of a served set file of set: an immutable,
// year-long SVG under the set's license and a CSP that allows no script.
func CheckFile(t require.TestingT, set string, h http.Header) {
	assert.Equal(t, "image/svg+xml", h.Get("Content-Type"))
	assert.Equal(t, "public, max-age=31536000, immutable", h.Get("Cache-Control"))
	assert.Equal(t, "<"+Licenses[set]+`>; rel="license"`, h.Get("Link"))
	assert.Contains(t, h.Get("Content-Security-Policy"), "default-src 'none'")
	assert.NotContains(t, h.Get("Content-Security-Policy"), "script-src")
}

// CheckError asserts a refusal in the spec's shape: the case's status,
// {error, message} with its code, and a cache lifetime of a day for a 404
// (the mapping changes only with a deploy) and none for anything else.
func CheckError(t require.TestingT, tc ErrorCase, status int, h http.Header, body []byte) {
	require.Equal(t, tc.Status, status, "%s: %s", tc.Path, body)
	var got map[string]string
	require.NoError(t, json.Unmarshal(body, &got), tc.Path)
	assert.Equal(t, tc.Code, got["error"], tc.Path)
	assert.NotEmpty(t, got["message"], tc.Path)
	want := "no-store"
	if tc.Status == http.StatusNotFound {
		want = "public, max-age=86400"
	}
	assert.Equal(t, want, h.Get("Cache-Control"), tc.Path)
}
