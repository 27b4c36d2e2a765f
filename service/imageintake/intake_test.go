package imageintake_test

import (
	"bytes"
	"encoding/base64"
	"errors"
	"image"
	"image/color"
	"image/gif"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/service/imageintake"
	"github.com/emojisearch/emojisearch/service/imageintake/imagebombs"
)

// Real files of each raster type, made by the standard library encoders
// (PNG, GIF) or taken from the WebP container spec's smallest lossless
// image, so the magic checks are tested on what encoders write.
func pngBytes(t testing.TB) []byte {
	var b bytes.Buffer
	img := image.NewRGBA(image.Rect(0, 0, 4, 4))
	img.Set(1, 1, color.RGBA{255, 0, 0, 255})
	require.NoError(t, png.Encode(&b, img))
	return b.Bytes()
}

func gifBytes(t testing.TB) []byte {
	var b bytes.Buffer
	img := image.NewPaletted(image.Rect(0, 0, 4, 4), color.Palette{color.Black, color.White})
	require.NoError(t, gif.EncodeAll(&b, &gif.GIF{Image: []*image.Paletted{img, img}, Delay: []int{10, 10}}))
	return b.Bytes()
}

func webpBytes(t testing.TB) []byte {
	b, err := base64.StdEncoding.DecodeString("UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==")
	require.NoError(t, err)
	return b
}

const okSVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 8"><circle cx="4" cy="4" r="3"/></svg>`

func TestCheckTypes(t *testing.T) {
	pngB, gifB, webpB := pngBytes(t), gifBytes(t), webpBytes(t)
	cases := []struct {
		name     string
		b        []byte
		declared string
		wantType string
		wantExt  string
		wantErr  *imageintake.Error
	}{
		{"png", pngB, "image/png", "image/png", "png", nil},
		{"gif", gifB, "image/gif", "image/gif", "gif", nil},
		{"webp", webpB, "image/webp", "image/webp", "webp", nil},
		{"svg", []byte(okSVG), "image/svg+xml", "image/svg+xml", "svg", nil},
		{"png declared as html: the bytes decide", pngB, "text/html", "image/png", "png", nil},
		{"svg declared as png is still checked as svg", []byte(`<svg xmlns="http://www.w3.org/2000/svg" onload="x()"/>`), "image/png", "", "", imageintake.ErrUnsafeSVG},
		{"empty", nil, "image/png", "", "", imageintake.ErrEmpty},
		{"jpeg is not accepted", []byte("\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00"), "image/jpeg", "", "", imageintake.ErrUnsupported},
		{"png signature without IHDR", append([]byte("\x89PNG\r\n\x1a\n"), make([]byte, 40)...), "", "", "", imageintake.ErrUnsupported},
		{"truncated png", pngB[:20], "", "", "", imageintake.ErrUnsupported},
		{"gif header only", []byte("GIF89a"), "", "", "", imageintake.ErrUnsupported},
		{"riff that is not webp", []byte("RIFF\x24\x00\x00\x00WAVEfmt \x10\x00\x00\x00\x01\x00\x01\x00\x44\xac\x00\x00\x88\x58\x01\x00\x02\x00\x10\x00"), "", "", "", imageintake.ErrUnsupported},
		{"webp with a size beyond the bytes", append([]byte("RIFF\xff\xff\x00\x00WEBPVP8L"), webpB[16:]...), "", "", "", imageintake.ErrUnsupported},
		{"webp with an unknown first chunk", append([]byte("RIFF\x1a\x00\x00\x00WEBPEXIF"), webpB[16:]...), "", "", "", imageintake.ErrUnsupported},
		{"html page", []byte("<!DOCTYPE html><html><body>hi</body></html>"), "image/svg+xml", "", "", imageintake.ErrUnsupported},
		{"svg under a DOCTYPE with entities naming another type (issue 27)", []byte(`<!DOCTYPE lolz [<!ENTITY lol "lol">]><svg xmlns="http://www.w3.org/2000/svg"><text>&lol;</text></svg>`), "", "", "", imageintake.ErrUnsafeSVG},
		{"svg under a DOCTYPE of another type", []byte(`<!DOCTYPE html><svg xmlns="http://www.w3.org/2000/svg"/>`), "", "", "", imageintake.ErrUnsafeSVG},
		{"html page declaring entities", []byte(`<!DOCTYPE html [<!ENTITY a "b">]><html/>`), "", "", "", imageintake.ErrUnsafeSVG},
		{"xhtml root", []byte(`<html xmlns="http://www.w3.org/1999/xhtml"><script>x()</script></html>`), "", "", "", imageintake.ErrUnsupported},
		{"svg root without the SVG namespace", []byte(`<svg viewBox="0 0 8 8"><circle r="3"/></svg>`), "", "", "", imageintake.ErrUnsupported},
		{"not xml at all", []byte("<<<<>>>>"), "", "", "", imageintake.ErrUnsupported},
		{"plain text", []byte("hello"), "", "", "", imageintake.ErrUnsupported},
		{"only a comment", []byte("<!-- nothing -->"), "", "", "", imageintake.ErrUnsupported},
		{"over 256 KB", append(pngB, make([]byte, imageintake.MaxBytes)...), "", "", "", imageintake.ErrTooLarge},
		{"exactly 256 KB", append(pngB, make([]byte, imageintake.MaxBytes-len(pngB))...), "", "image/png", "png", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			img, err := imageintake.Check(c.b, c.declared)
			if c.wantErr != nil {
				require.ErrorIs(t, err, c.wantErr)
				var ie *imageintake.Error
				require.True(t, errors.As(err, &ie))
				require.Equal(t, c.wantErr.Status, ie.Status)
				require.Equal(t, "file", ie.Field())
				return
			}
			require.NoError(t, err)
			require.Equal(t, c.wantType, img.ContentType)
			require.Equal(t, c.wantExt, img.Ext)
			require.Equal(t, len(c.b), img.Bytes)
			require.Equal(t, c.declared, img.Declared)
			require.Equal(t, imageintake.Hash(c.b), img.Hash)
		})
	}
}

func TestErrorStatuses(t *testing.T) {
	for _, c := range []struct {
		err    *imageintake.Error
		code   string
		status int
	}{
		{imageintake.ErrEmpty, "invalid_request", 400},
		{imageintake.ErrTooLarge, "image_too_large", 413},
		{imageintake.ErrUnsupported, "unsupported_image", 415},
		{imageintake.ErrUnsafeSVG, "unsafe_svg", 400},
		{imageintake.ErrInvalid, "invalid_image", 400},
		{imageintake.ErrTooManyPixels, "image_too_many_pixels", 400},
		{imageintake.ErrTooManyFrames, "image_too_many_frames", 400},
	} {
		require.Equal(t, c.code, c.err.Code)
		require.Equal(t, c.status, c.err.Status)
	}
	require.NotErrorIs(t, imageintake.ErrUnsafeSVG, imageintake.ErrUnsupported)
}

func TestHash(t *testing.T) {
	// xxhash64 of the empty input and of "abc" (reference values of the
	// xxHash specification), as 16 hex digits.
	require.Equal(t, "ef46db3751d8e999", imageintake.Hash(nil))
	require.Equal(t, "44bc2cf5ad770999", imageintake.Hash([]byte("abc")))
	require.Len(t, imageintake.Hash([]byte{1}), 16)
}

// corpus reads every file of testdata/svg/<dir>.
func corpus(t *testing.T, dir string) map[string][]byte {
	files, err := filepath.Glob(filepath.Join("testdata", "svg", dir, "*.svg"))
	require.NoError(t, err)
	out := map[string][]byte{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		out[filepath.Base(f)] = b
	}
	return out
}

// TestAttackCorpus: every attack file is refused with unsafe_svg, not
// merely refused (a parse failure reported as "not an image" would hide
// a rule that never ran).
func TestAttackCorpus(t *testing.T) {
	files := corpus(t, "attack")
	require.GreaterOrEqual(t, len(files), 40)
	for name, b := range files {
		t.Run(name, func(t *testing.T) {
			_, err := imageintake.Check(b, "image/svg+xml")
			require.ErrorIs(t, err, imageintake.ErrUnsafeSVG, "%v", err)
		})
	}
}

// TestLegitCorpus: SVGs as editors and emoji projects export them pass
// unchanged.
func TestLegitCorpus(t *testing.T) {
	files := corpus(t, "legit")
	require.GreaterOrEqual(t, len(files), 10)
	for name, b := range files {
		t.Run(name, func(t *testing.T) {
			img, err := imageintake.Check(b, "")
			require.NoError(t, err)
			require.Equal(t, "image/svg+xml", img.ContentType)
			require.Equal(t, "svg", img.Ext)
		})
	}
}

// TestOpenMojiDir checks a whole directory of real emoji SVGs when
// OPENMOJI_SVG_DIR names one (e.g. color/svg of the openmoji npm package;
// the artwork is not committed here). Every file must pass.
func TestOpenMojiDir(t *testing.T) {
	dir := os.Getenv("OPENMOJI_SVG_DIR")
	if dir == "" {
		t.Skip("OPENMOJI_SVG_DIR not set")
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.svg"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		_, err = imageintake.Check(b, "")
		require.NoError(t, err, f)
	}
	t.Logf("%d files accepted", len(files))
}

// TestSmallRules pins single rules the corpus files combine.
func TestSmallRules(t *testing.T) {
	wrap := func(s string) []byte {
		return []byte(`<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">` + s + `</svg>`)
	}
	cases := []struct {
		name string
		body string
		ok   bool
	}{
		{"fragment href", `<use href="#a"/>`, true},
		{"empty href", `<a href="">x</a>`, true},
		{"png data uri image", `<image href="data:image/png;base64,AAAA"/>`, true},
		{"jpeg data uri in url()", `<rect fill="url(data:image/jpeg;base64,AAAA)"/>`, true},
		{"quoted fragment url", `<rect style="fill:url( '#g' )"/>`, true},
		{"text with a less-than sign", `<text>a &lt; b</text>`, true},
		{"style with comments", `<style>/* brand */ .a{fill:#f00}</style>`, true},
		{"editor attribute with a backslash", `<g xmlns:i="http://ns.adobe.com/AdobeIllustrator/10.0/" i:path="C:\x\y"/>`, true},
		{"animate of a plain attribute", `<rect><animate attributeName="width" to="10"/></rect>`, true},
		{"set of an href", `<a><set attributeName="href" to="#b"/></a>`, false},
		{"backslash in a presentation attribute", `<rect fill="\75 rl(//e.example/a#b)"/>`, false},
		{"svg data uri", `<image href="data:image/svg+xml,x"/>`, false},
		{"element inside style", `<style><x/></style>`, false},
		{"text markup", `<text>&lt;b&gt;x</text>`, false},
		{"relative file", `<image href="a.png"/>`, false},
		{"protocol-relative", `<image href="//a.example/a.png"/>`, false},
		{"src attribute", `<image src="https://a.example/a.png"/>`, false},
		{"unterminated comment hides nothing", `<style>/* @import "x.css"</style>`, false},
		{"handler with a namespace", `<rect xmlns:x="urn:x" x:onload="a()"/>`, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := imageintake.Check(wrap(c.body), "")
			if c.ok {
				require.NoError(t, err)
			} else {
				require.ErrorIs(t, err, imageintake.ErrUnsafeSVG, "%v", err)
			}
		})
	}
}

// FuzzCheck: no input panics, and whatever passes has a supported type,
// within the limit; the seeds include the bomb corpus.
func FuzzCheck(f *testing.F) {
	f.Add(pngBytes(f))
	f.Add(gifBytes(f))
	f.Add(webpBytes(f))
	f.Add([]byte(okSVG))
	for _, b := range imagebombs.Corpus() {
		if len(b.Bytes) < 8<<10 {
			f.Add(b.Bytes)
		}
	}
	for _, b := range imagebombs.Ordinary() {
		f.Add(b)
	}
	for _, dir := range []string{"attack", "legit"} {
		files, _ := filepath.Glob(filepath.Join("testdata", "svg", dir, "*.svg"))
		for _, file := range files {
			if b, err := os.ReadFile(file); err == nil {
				f.Add(b)
			}
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		img, err := imageintake.Check(b, "")
		if err != nil {
			var ie *imageintake.Error
			require.True(t, errors.As(err, &ie))
			return
		}
		require.LessOrEqual(t, img.Bytes, imageintake.MaxBytes)
		require.Contains(t, []string{"png", "gif", "webp", "svg"}, img.Ext)
		if img.Ext == "svg" {
			// An accepted SVG never holds a script element in any spelling
			// a browser would run.
			require.NotContains(t, strings.ToLower(string(b)), "<script")
		}
	})
}
