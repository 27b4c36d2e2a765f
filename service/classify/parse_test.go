package classify

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"image"
	"image/color"
	"image/jpeg"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseLabel(t *testing.T) {
	cases := []struct {
		name   string
		answer string
		ok     bool
		want   Label
	}{
		{"the asked JSON",
			`{"caption":"A cat sleeping on a sofa","reaction":"So cozy!","keywords":["cat","sleep","sofa"],"emoji":["🐱","😴","🛋️"]}`,
			true, Label{"A cat sleeping on a sofa", "So cozy!", []string{"cat", "sleep", "sofa"}, []string{"🐱", "😴", "🛋️"}}},
		{"chatty with code fence",
			"Sure! Here is the label:\n```json\n{\"caption\": \"A birthday cake\", \"reaction\": \"Happy birthday!\", \"keywords\": \"cake, birthday, candles\", \"emoji\": \"🎂 🎉 🕯️\"}\n```\nHope it helps!",
			true, Label{"A birthday cake", "Happy birthday!", []string{"cake", "birthday", "candles"}, []string{"🎂", "🎉", "🕯️"}}},
		{"lines instead of JSON",
			"Caption: A dog running on a beach\nReaction: Zoomies!\nKeywords: dog, beach, run, sand, sea, sun, waves\nEmoji: 🐕 🏖️",
			true, Label{"A dog running on a beach", "Zoomies!", []string{"dog", "beach", "run", "sand", "sea", "sun"}, []string{"🐕", "🏖️"}}},
		{"too few keywords completed from the caption",
			`{"caption":"Red apple on a wooden table","keywords":["apple"],"emoji":[]}`,
			true, Label{"Red apple on a wooden table", "", []string{"apple", "red", "wooden"}, nil}},
		{"duplicates and too many emoji",
			`{"caption":"x","emoji":["😀","😀","😁","😂","🤣","😃","😄","😅","😆","😉"]}`,
			true, Label{"x", "", nil, []string{"😀", "😁", "😂", "🤣", "😃", "😄", "😅", "😆"}}},
		{"wrong kinds ignored", `{"caption":5,"keywords":{"a":1},"emoji":null}`, false, Label{}},
		{"prose only", "I cannot help with that request.", false, Label{}},
		{"empty", "", false, Label{}},
		{"broken JSON with trailing text", `{"caption":"A tree",` + "\n", false, Label{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok := ParseLabel(c.answer)
			assert.Equal(t, c.ok, ok)
			if c.ok {
				assert.Equal(t, c.want, got)
			}
		})
	}
}

func FuzzParseLabel(f *testing.F) {
	for _, s := range []string{`{"caption":"a","keywords":["b"],"emoji":["🐱"]}`, "Caption: x\nEmoji: 🐶", "{", "{{}}", "\xff{\"caption\":\"\xfe\"}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		l, _ := ParseLabel(s)
		if utf8.RuneCountInString(l.Caption) > maxCaption || utf8.RuneCountInString(l.Reaction) > maxReaction ||
			len(l.Keywords) > maxKeywords || len(l.Emoji) > maxEmoji {
			t.Fatalf("bounds broken: %+v", l)
		}
		back, err := UnmarshalLabel(MarshalLabel(l))
		if err != nil {
			t.Fatalf("round trip: %v", err)
		}
		if back.Caption != clean(l.Caption, maxCaption) {
			t.Fatalf("round trip changed the caption")
		}
	})
}

func TestLabelCacheEncoding(t *testing.T) {
	l := Label{"A cat", "Aww", []string{"cat", "pet", "cute"}, []string{"🐱", "😺"}}
	back, err := UnmarshalLabel(MarshalLabel(l))
	require.NoError(t, err)
	assert.Equal(t, l, back)
	_, err = UnmarshalLabel([]byte{0x80}) // an empty map: no format field
	assert.Error(t, err)
	_, err = UnmarshalLabel(MarshalLabel(l)[:10])
	assert.Error(t, err)
	assert.Equal(t, "img-label:llama-3.2-11b-vision:p1:00ff00ff00ff00ff", CacheKey("00ff00ff00ff00ff"))
}

func FuzzUnmarshalLabel(f *testing.F) {
	f.Add(MarshalLabel(Label{"a", "b", []string{"c"}, []string{"🐱"}}))
	f.Add([]byte{0xDF, 0xFF, 0xFF, 0xFF, 0xFF})
	f.Fuzz(func(t *testing.T, b []byte) {
		l, err := UnmarshalLabel(b)
		if err == nil && (len(l.Keywords) > maxKeywords || len(l.Emoji) > maxEmoji) {
			t.Fatalf("bounds broken: %+v", l)
		}
	})
}

// jpegOf encodes a w x h image of one colour.
func jpegOf(t testing.TB, w, h int, c color.Color) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.Set(x, y, c)
		}
	}
	var buf bytes.Buffer
	require.NoError(t, jpeg.Encode(&buf, img, nil))
	return buf.Bytes()
}

// webpHeader is a WebP file with a VP8X chunk declaring w x h (the header
// is all Sniff reads).
func webpHeader(w, h int) []byte {
	b := make([]byte, 30)
	copy(b, "RIFF")
	binary.LittleEndian.PutUint32(b[4:], 22)
	copy(b[8:], "WEBPVP8X")
	binary.LittleEndian.PutUint32(b[16:], 10)
	w, h = w-1, h-1
	b[24], b[25], b[26] = byte(w), byte(w>>8), byte(w>>16)
	b[27], b[28], b[29] = byte(h), byte(h>>8), byte(h>>16)
	return b
}

// jpegHeader is a JPEG start with a baseline frame header declaring w x h.
func jpegHeader(w, h int) []byte {
	b := []byte{0xFF, 0xD8, 0xFF, 0xE0, 0, 4, 0, 0, 0xFF, 0xC0, 0, 11, 8, 0, 0, 0, 0, 1, 1, 0x11, 0}
	binary.BigEndian.PutUint16(b[13:], uint16(h))
	binary.BigEndian.PutUint16(b[15:], uint16(w))
	return b
}

func TestSniff(t *testing.T) {
	vp8l := append([]byte("RIFF\x1a\x00\x00\x00WEBPVP8L\x0d\x00\x00\x00\x2f"), 0, 0, 0, 0, 0, 0, 0, 0, 0)
	v := uint32(99) | uint32(49)<<14 // 100 x 50
	binary.LittleEndian.PutUint32(vp8l[21:], v)
	cases := []struct {
		name   string
		b      []byte
		format string
		w, h   int
		ok     bool
	}{
		{"real jpeg", jpegOf(t, 40, 30, color.White), JPEG, 40, 30, true},
		{"jpeg header", jpegHeader(384, 200), JPEG, 384, 200, true},
		{"webp vp8x", webpHeader(384, 384), WebP, 384, 384, true},
		{"webp vp8l", vp8l, WebP, 100, 50, true},
		{"60000 x 60000 jpeg refused", jpegHeader(60000, 60000), JPEG, 0, 0, false},
		{"60000 x 60000 webp refused", webpHeader(60000, 60000), WebP, 0, 0, false},
		{"zero size", jpegHeader(0, 10), JPEG, 0, 0, false},
		{"png", []byte("\x89PNG\r\n\x1a\n0000000000000000"), "", 0, 0, false},
		{"truncated jpeg", jpegHeader(10, 10)[:12], JPEG, 0, 0, false},
		{"empty", nil, "", 0, 0, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			format, w, h, err := Sniff(c.b)
			assert.Equal(t, c.format, format)
			if !c.ok {
				assert.ErrorIs(t, err, ErrUnreadable)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, []int{c.w, c.h}, []int{w, h})
		})
	}
}

func FuzzSniff(f *testing.F) {
	f.Add(jpegHeader(384, 384))
	f.Add(webpHeader(60000, 60000))
	f.Add([]byte("RIFF\x00\x00\x00\x00WEBPVP8 \x00\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, b []byte) {
		_, w, h, err := Sniff(b)
		if err == nil && (w <= 0 || h <= 0 || w > MaxSide || h > MaxSide) {
			t.Fatalf("accepted %dx%d", w, h)
		}
	})
}

func TestByteArray(t *testing.T) {
	b, err := byteArray{0, 7, 255}.MarshalJSON()
	require.NoError(t, err)
	assert.Equal(t, "[0,7,255]", string(b))
	assert.True(t, strings.HasPrefix(string(mustJSON(t, newRequest([]byte{1}))), `{"messages":[{"role":"system"`))
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return b
}
