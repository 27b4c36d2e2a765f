package emojistore_test

import (
	"bytes"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/service/emojistore"
)

const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 8"><circle cx="4" cy="4" r="3"/></svg>`

func TestNormalizeShortcode(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"party", "party"},
		{":Party_Parrot:", "party_parrot"},
		{"  :+1:  ", "+1"},
		{"a-b_c+d", "a-b_c+d"},
		{strings.Repeat("a", 64), strings.Repeat("a", 64)},
		{"", ""},
		{"::", ""},
		{"___", ""},
		{"-+", ""},
		{strings.Repeat("a", 65), ""},
		{"with space", ""},
		{"café", ""},
		{"\u212Aelvin", ""},  // Kelvin sign: no Unicode lowering into ASCII
		{"abc\u202Eexe", ""}, // RTL override
		{"\xff\xfe", ""},     // not UTF-8
		{"a.b", ""},
		{"emoji\x00", ""},
	} {
		got, err := emojistore.NormalizeShortcode(c.in)
		if c.want == "" {
			var fe *emojistore.FieldError
			require.ErrorAs(t, err, &fe, "%q", c.in)
			require.Equal(t, "shortcode", fe.Field)
			continue
		}
		require.NoError(t, err, "%q", c.in)
		require.Equal(t, c.want, got)
	}
}

func TestNormalizeAliases(t *testing.T) {
	got, err := emojistore.NormalizeAliases(emojistore.SplitAliases(" Party Time ,party time,, ,Fête"))
	require.NoError(t, err)
	require.Len(t, got, 2, "%q", got)
	require.Equal(t, "party time", got[0])

	got, err = emojistore.NormalizeAliases(emojistore.SplitAliases(""))
	require.NoError(t, err)
	require.Equal(t, []string{}, got)

	many := make([]string, 21)
	for i := range many {
		many[i] = "alias" + strings.Repeat("x", i)
	}
	_, err = emojistore.NormalizeAliases(many)
	require.Error(t, err)
	_, err = emojistore.NormalizeAliases(many[:20])
	require.NoError(t, err)
	_, err = emojistore.NormalizeAliases([]string{strings.Repeat("long ", 20)})
	require.Error(t, err)
	_, err = emojistore.NormalizeAliases([]string{"\xff"})
	require.Error(t, err)
}

func TestValidExternalID(t *testing.T) {
	for s, ok := range map[string]bool{
		"cust-1": true, "a.b_c~d:e@f+g-h": true, strings.Repeat("x", 128): true,
		"": false, strings.Repeat("x", 129): false, "a b": false, "a/b": false, "é": false, "a%20": false,
	} {
		require.Equal(t, ok, emojistore.ValidExternalID(s), "%q", s)
	}
}

func TestTenantName(t *testing.T) {
	n, err := emojistore.TenantName("  Acme  ")
	require.NoError(t, err)
	require.Equal(t, "Acme", n)
	for _, bad := range []string{strings.Repeat("é", 129), "a\nb", "a\u202Eb", "\xff"} {
		_, err := emojistore.TenantName(bad)
		require.Error(t, err, "%q", bad)
	}
}

// form builds a multipart body; parts are name, filename, content type,
// content.
func form(t *testing.T, parts ...[4]string) (string, []byte) {
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	for _, p := range parts {
		h := map[string][]string{"Content-Disposition": {`form-data; name="` + p[0] + `"`}}
		if p[1] != "" {
			h["Content-Disposition"] = []string{`form-data; name="` + p[0] + `"; filename="` + p[1] + `"`}
		}
		if p[2] != "" {
			h["Content-Type"] = []string{p[2]}
		}
		w, err := mw.CreatePart(h)
		require.NoError(t, err)
		_, _ = w.Write([]byte(p[3]))
	}
	require.NoError(t, mw.Close())
	return mw.FormDataContentType(), b.Bytes()
}

func TestReadUpload(t *testing.T) {
	okCT, okBody := form(t, [4]string{"file", "a.svg", "image/png", svg}, [4]string{"shortcode", "", "", "party"},
		[4]string{"other", "", "", "ignored"})
	twoCT, twoBody := form(t, [4]string{"file", "a.svg", "", svg}, [4]string{"file", "b.svg", "", svg})
	dupCT, dupBody := form(t, [4]string{"file", "a.svg", "", svg}, [4]string{"shortcode", "", "", "a"}, [4]string{"shortcode", "", "", "b"})
	noFileCT, noFileBody := form(t, [4]string{"shortcode", "", "", "a"})
	bigCT, bigBody := form(t, [4]string{"file", "a.png", "", strings.Repeat("x", 256*1024+1)})
	hugeCT, hugeBody := form(t, [4]string{"shortcode", "", "", "a"}, [4]string{"file", "a.png", "", strings.Repeat("x", 400*1024)})
	badUTF8CT, badUTF8Body := form(t, [4]string{"file", "a.svg", "", svg}, [4]string{"shortcode", "", "", "\xff"})
	longCT, longBody := form(t, [4]string{"file", "a.svg", "", svg}, [4]string{"aliases", "", "", strings.Repeat("a,", 5000)})
	hdrCT := "multipart/form-data; boundary=XX"
	hdrBody := "--XX\r\nContent-Disposition: form-data; name=\"file\"\r\nX-Pad: " + strings.Repeat("h", 400*1024) + "\r\n\r\nabc\r\n--XX--\r\n"
	cases := []struct {
		name, ct string
		body     []byte
		status   int
		code     string
		field    string
	}{
		{"ok", okCT, okBody, 0, "", ""},
		{"json", "application/json", []byte(`{}`), 415, "unsupported_media_type", ""},
		{"no content type", "", okBody, 415, "unsupported_media_type", ""},
		{"no boundary", "multipart/form-data", okBody, 415, "unsupported_media_type", ""},
		{"wrong boundary", "multipart/form-data; boundary=nope", okBody, 400, "invalid_multipart", ""},
		{"truncated", okCT, okBody[:len(okBody)/2], 400, "invalid_multipart", ""},
		{"two files", twoCT, twoBody, 400, "invalid_request", "file"},
		{"repeated field", dupCT, dupBody, 400, "invalid_request", "shortcode"},
		{"no file", noFileCT, noFileBody, 400, "invalid_request", "file"},
		{"image over 256 KB", bigCT, bigBody, 413, "image_too_large", "file"},
		{"body over the bound", hugeCT, hugeBody, 413, "image_too_large", "file"},
		{"huge part header", hdrCT, []byte(hdrBody), 413, "image_too_large", "file"},
		{"part header over 8 KB", hdrCT, []byte(strings.Replace(hdrBody, strings.Repeat("h", 400*1024), strings.Repeat("h", 10*1024), 1)), 400, "invalid_multipart", ""},
		{"folded part header", hdrCT, []byte("--XX\r\nContent-Disposition: form-data;\r\n name=\"file\"\r\n\r\nabc\r\n--XX--\r\n"), 400, "invalid_multipart", ""},
		{"field not UTF-8", badUTF8CT, badUTF8Body, 400, "invalid_request", "shortcode"},
		{"field over 8 KB", longCT, longBody, 400, "invalid_request", "aliases"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodPost, "/", bytes.NewReader(c.body))
			if c.ct != "" {
				r.Header.Set("Content-Type", c.ct)
			}
			up, uerr := emojistore.ReadUpload(httptest.NewRecorder(), r, "shortcode", "aliases", "tenantId")
			if c.status == 0 {
				require.Nil(t, uerr)
				require.Equal(t, svg, string(up.File))
				require.Equal(t, "image/png", up.FileType)
				require.Equal(t, map[string]string{"shortcode": "party"}, up.Fields)
				return
			}
			require.NotNil(t, uerr)
			require.Equal(t, c.status, uerr.Status, uerr.Message)
			require.Equal(t, c.code, uerr.Code)
			require.Equal(t, c.field, uerr.Field)
		})
	}
}

// FuzzReadUpload: no body panics the form reader.
func FuzzReadUpload(f *testing.F) {
	f.Add([]byte("--XX\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\nabc\r\n--XX--\r\n"))
	f.Add([]byte("--XX\r\nContent-Disposition: form-data; name=\"shortcode\"\r\n\r\na\r\n--XX\r\n"))
	f.Fuzz(func(t *testing.T, body []byte) {
		r := httptest.NewRequest(http.MethodPost, "/", bytes.NewReader(body))
		r.Header.Set("Content-Type", "multipart/form-data; boundary=XX")
		_, _ = emojistore.ReadUpload(httptest.NewRecorder(), r, "shortcode")
	})
}
