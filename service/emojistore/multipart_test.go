package emojistore

import (
	"bytes"
	"io"
	"mime/multipart"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestParseForm(t *testing.T) {
	cases := []struct {
		name  string
		body  string
		parts []formPart
	}{
		{"crlf", "--B\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nx\r\n--B--\r\n", []formPart{{name: "a", body: []byte("x")}}},
		{"lf", "--B\nContent-Disposition: form-data; name=\"a\"\n\nx\n--B--", []formPart{{name: "a", body: []byte("x")}}},
		{"preamble and epilogue", "hello\r\n--B\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n\r\n--B--\r\nbye", []formPart{{name: "a", body: []byte{}}}},
		{"padding after the delimiter", "--B  \r\nContent-Disposition: form-data; name=\"a\"\r\nContent-Type: image/png\r\n\r\nx\r\ny\r\n--B--", []formPart{{name: "a", contentType: "image/png", body: []byte("x\r\ny")}}},
		{"two parts", "--B\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1\r\n--B\r\nContent-Disposition: form-data; name=\"b\"; filename=\"f.png\"\r\n\r\n2\r\n--B--", []formPart{{name: "a", body: []byte("1")}, {name: "b", body: []byte("2")}}},
		{"no close delimiter", "--B\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nx\r\n", nil},
		{"no delimiter at all", "just text", nil},
		{"folded header", "--B\r\nContent-Disposition: form-data;\r\n name=\"a\"\r\n\r\nx\r\n--B--", nil},
		{"quoted-printable", "--B\r\nContent-Disposition: form-data; name=\"a\"\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n=41\r\n--B--", nil},
		{"not form-data", "--B\r\nContent-Disposition: attachment; name=\"a\"\r\n\r\nx\r\n--B--", nil},
		{"junk after the delimiter", "--Bjunk\r\n\r\nx\r\n--B--", nil},
		{"header without colon", "--B\r\nnonsense\r\n\r\nx\r\n--B--", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := parseForm([]byte(c.body), "B")
			if c.parts == nil {
				require.ErrorIs(t, err, errMalformed)
				return
			}
			require.NoError(t, err)
			require.Equal(t, len(c.parts), len(got))
			for i := range got {
				require.Equal(t, c.parts[i].name, got[i].name)
				require.Equal(t, c.parts[i].contentType, got[i].contentType)
				require.Equal(t, string(c.parts[i].body), string(got[i].body))
			}
		})
	}
}

// FuzzMultipart: parseForm never panics, and a body both parseForm and
// mime/multipart read whole yields the same parts from both.
func FuzzMultipart(f *testing.F) {
	f.Add([]byte("--B\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a\"\r\nContent-Type: image/png\r\n\r\nabc\r\n--B\r\nContent-Disposition: form-data; name=\"shortcode\"\r\n\r\nx\r\n--B--\r\n"))
	f.Add([]byte("pre\n--B\nContent-Disposition: form-data; name=\"a\"\n\n\n--B--"))
	f.Fuzz(func(t *testing.T, body []byte) {
		mine, err := parseForm(body, "B")
		if err != nil {
			return
		}
		mr := multipart.NewReader(bytes.NewReader(body), "B")
		var theirs []formPart
		for {
			p, err := mr.NextPart()
			if err == io.EOF {
				break
			}
			if err != nil {
				return // the standard reader refuses it: nothing to compare
			}
			b, err := io.ReadAll(p)
			if err != nil {
				return
			}
			theirs = append(theirs, formPart{name: p.FormName(), contentType: p.Header.Get("Content-Type"), body: b})
		}
		require.Equal(t, len(theirs), len(mine), "%q", body)
		for i := range mine {
			require.Equal(t, theirs[i].name, mine[i].name, "%q", body)
			require.Equal(t, string(theirs[i].body), string(mine[i].body), "%q", body)
		}
	})
}
