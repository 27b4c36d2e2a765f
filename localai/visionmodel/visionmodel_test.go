package visionmodel

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"image"
	"image/color"
	"image/jpeg"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/localai/aimodel"
	"github.com/emojisearch/emojisearch/service/classify"
)

func open(t *testing.T) *Model {
	t.Helper()
	packs, err := filepath.Glob("../../packs/dist/*/pack.en.json")
	require.NoError(t, err)
	require.NotEmpty(t, packs)
	m, err := Open("../../packs/models/emoji-vision.noto.evis", packs[0])
	require.NoError(t, err)
	return m
}

// redCircle draws a red disc on white, as a sticker of 🔴 might look.
func redCircle(t *testing.T) []byte {
	img := image.NewRGBA(image.Rect(0, 0, 96, 96))
	for y := 0; y < 96; y++ {
		for x := 0; x < 96; x++ {
			dx, dy := float64(x)-47.5, float64(y)-47.5
			c := color.RGBA{255, 255, 255, 255}
			if dx*dx+dy*dy < 40*40 {
				c = color.RGBA{221, 46, 68, 255}
			}
			img.Set(x, y, c)
		}
	}
	var b bytes.Buffer
	require.NoError(t, jpeg.Encode(&b, img, &jpeg.Options{Quality: 80}))
	return b.Bytes()
}

func asInts(b []byte) []any {
	out := make([]any, len(b))
	for i, c := range b {
		out[i] = float64(c)
	}
	return out
}

func inputs(img []byte) map[string]any {
	return map[string]any{"messages": []any{map[string]any{"role": "user", "content": "Label this image."}},
		"image": asInts(img), "max_tokens": float64(256)}
}

func TestRecognisesEmojiArt(t *testing.T) {
	m := open(t)
	webpBytes, err := os.ReadFile("testdata/red-circle.webp")
	require.NoError(t, err)
	for name, img := range map[string][]byte{"jpeg": redCircle(t), "webp": webpBytes} {
		out, err := m.Run(context.Background(), Name, inputs(img))
		require.NoError(t, err, name)
		text := out.(map[string]any)["response"].(string)
		label, ok := classify.ParseLabel(text)
		require.True(t, ok, text)
		assert.Contains(t, label.Emoji, "🔴", "%s: %s", name, text)
		assert.GreaterOrEqual(t, len(label.Keywords), 1)
		assert.NotEmpty(t, label.Caption)
	}
}

func TestRefusals(t *testing.T) {
	m := open(t)
	_, err := m.Run(context.Background(), "@cf/other/model", inputs(redCircle(t)))
	assert.ErrorIs(t, err, aimodel.ErrNoSuchModel)
	_, err = m.Run(context.Background(), Name, map[string]any{"messages": []any{"x"}})
	var e *aimodel.Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, aimodel.CodeInvalidInput, e.Code)
	// Not a picture: the prose a chat model writes, which the service degrades on.
	out, err := m.Run(context.Background(), Name, inputs([]byte("hello")))
	require.NoError(t, err)
	_, ok := classify.ParseLabel(out.(map[string]any)["response"].(string))
	assert.False(t, ok)
}

// webpDeclaring is a WebP header (VP8X) declaring w x h.
func webpDeclaring(w, h int) []byte {
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

func TestDecodeRefusesHugePicturesBeforeDecoding(t *testing.T) {
	_, err := Decode(webpDeclaring(60000, 60000))
	assert.Error(t, err)
	jpegHuge := []byte{0xFF, 0xD8, 0xFF, 0xC0, 0, 11, 8, 0xEA, 0x60, 0xEA, 0x60, 1, 1, 0x11, 0, 0xFF, 0xD9}
	_, err = Decode(jpegHuge)
	assert.Error(t, err)
}

func FuzzDecode(f *testing.F) {
	f.Add(webpDeclaring(60000, 60000))
	f.Add([]byte{0xFF, 0xD8, 0xFF, 0xC0, 0, 11, 8, 0, 16, 0, 16, 1, 1, 0x11, 0})
	f.Add([]byte("\x89PNG\r\n\x1a\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		img, err := Decode(b)
		if err == nil && img.Bounds().Dx()*img.Bounds().Dy() > MaxPixels {
			t.Fatal("decoded a picture over the bound")
		}
	})
}

func TestMuxAndREST(t *testing.T) {
	emb, err := aimodel.Open("../../packs/models/glove-cldr.100.embm")
	require.NoError(t, err)
	mux := Mux{Vision: open(t), Embed: emb}
	_, err = mux.Run(context.Background(), aimodel.Name, map[string]any{"text": []any{"cat"}})
	require.NoError(t, err, "embeddings still answer")
	srv := httptest.NewServer(mux.Handler())
	defer srv.Close()
	body, _ := json.Marshal(inputs(redCircle(t)))
	req, _ := http.NewRequest(http.MethodPost, srv.URL+"/accounts/local/ai/run/"+Name, bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer x")
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	var env struct {
		Result  classify.VisionAnswer `json:"result"`
		Success bool                  `json:"success"`
	}
	require.NoError(t, json.NewDecoder(res.Body).Decode(&env))
	assert.True(t, env.Success)
	assert.Contains(t, env.Result.Response, "🔴")
}
