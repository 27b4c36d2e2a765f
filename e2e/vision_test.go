package e2e

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/localai/aimodel"
)

// visionCalls counts calls of the fake vision model on both targets.
var visionCalls atomic.Int64

// fakeVision stands in for @cf/meta/llama-3.2-11b-vision-instruct, which
// cannot run here, speaking its Workers AI wire format: it checks the
// request as Workers AI does (messages, image as an array of integers
// 0..255, max_tokens) and answers {response: text}. The text describes the
// picture for real, if simply: the JPEG is decoded and named by its
// average colour, in the JSON the production prompt asks for.
func fakeVision(inputs any) (any, error) {
	visionCalls.Add(1)
	in, ok := inputs.(map[string]any)
	if !ok {
		return nil, &aimodel.Error{Code: aimodel.CodeInvalidInput, Message: "Error: Type mismatch of '/', 'object' expected"}
	}
	if msgs, _ := in["messages"].([]any); len(msgs) == 0 {
		return nil, &aimodel.Error{Code: aimodel.CodeInvalidInput, Message: "Error: required properties at '/' are 'messages'"}
	}
	if _, ok := in["max_tokens"].(float64); !ok {
		return nil, &aimodel.Error{Code: aimodel.CodeInvalidInput, Message: "Error: Type mismatch of '/max_tokens'"}
	}
	raw, _ := in["image"].([]any)
	img := make([]byte, len(raw))
	for i, v := range raw {
		f, ok := v.(float64)
		if !ok || f < 0 || f > 255 {
			return nil, &aimodel.Error{Code: aimodel.CodeInvalidInput, Message: fmt.Sprintf("Error: Type mismatch of '/image/%d'", i)}
		}
		img[i] = byte(f)
	}
	pic, err := jpeg.Decode(bytes.NewReader(img))
	if err != nil {
		return map[string]any{"response": "I'm sorry, I can't make out this image."}, nil
	}
	name, emoji := colourOf(pic)
	label := map[string]any{"caption": "A " + name + " square", "reaction": "Nice " + name + "!",
		"keywords": []string{name, "square", "colour"}, "emoji": []string{emoji}}
	b, _ := json.Marshal(label)
	return map[string]any{"response": "Here is the label:\n" + string(b)}, nil
}

// colourOf names the average colour of a picture among a few primaries.
func colourOf(pic image.Image) (string, string) {
	var r, g, b, n uint64
	bounds := pic.Bounds()
	for y := bounds.Min.Y; y < bounds.Max.Y; y++ {
		for x := bounds.Min.X; x < bounds.Max.X; x++ {
			cr, cg, cb, _ := pic.At(x, y).RGBA()
			r, g, b, n = r+uint64(cr>>8), g+uint64(cg>>8), b+uint64(cb>>8), n+1
		}
	}
	r, g, b = r/n, g/n, b/n
	switch {
	case r > 150 && g < 100 && b < 100:
		return "red", "🟥"
	case g > 150 && r < 100 && b < 100:
		return "green", "🟩"
	case b > 150 && r < 100 && g < 100:
		return "blue", "🟦"
	case r > 200 && g > 200 && b > 200:
		return "white", "⬜"
	}
	return "black", "⬛"
}

// serveVisionREST is the fake model behind the Workers AI REST API.
func serveVisionREST(w http.ResponseWriter, r *http.Request) {
	var inputs any
	body, _ := io.ReadAll(r.Body)
	w.Header().Set("Content-Type", "application/json")
	if err := json.Unmarshal(body, &inputs); err != nil {
		w.WriteHeader(http.StatusBadRequest)
		_ = json.NewEncoder(w).Encode(map[string]any{"result": nil, "success": false,
			"errors": []any{map[string]any{"code": aimodel.CodeInvalidInput, "message": "not JSON"}}, "messages": []any{}})
		return
	}
	out, err := fakeVision(inputs)
	if err != nil {
		w.WriteHeader(http.StatusBadRequest)
		_ = json.NewEncoder(w).Encode(map[string]any{"result": nil, "success": false,
			"errors": []any{map[string]any{"code": aimodel.CodeInvalidInput, "message": err.Error()}}, "messages": []any{}})
		return
	}
	_ = json.NewEncoder(w).Encode(map[string]any{"result": out, "success": true, "errors": []any{}, "messages": []any{}})
}

func squareJPEG(t *testing.T, c color.Color) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 48, 48))
	for y := 0; y < 48; y++ {
		for x := 0; x < 48; x++ {
			img.Set(x, y, c)
		}
	}
	var buf bytes.Buffer
	require.NoError(t, jpeg.Encode(&buf, img, nil))
	return buf.Bytes()
}

// webpDeclaring is the header of a WebP (VP8X) declaring w x h pixels.
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

func classifyImage(t *testing.T, query, ct string, body []byte, headers ...string) reply {
	t.Helper()
	return call(t, "POST", "/v1/classify-image"+query, body, append([]string{"Content-Type", ct}, headers...)...)
}

// unique16 is a fresh 16-hex image hash.
// keyedApp signs a user up with an app whose publishable key allows
// origin; q is the "?key=" query that sends the key.
func keyedApp(t *testing.T, origin string) (u user, appID, q string) {
	t.Helper()
	u = signUp(t)
	appID, _, full := newAppWithKey(t, u, origin)
	return u, appID, "?key=" + url.QueryEscape(full)
}

// appUsed is the app's part of a metric in the dashboard's usage answer.
func appUsed(t *testing.T, u user, appID, metric string) float64 {
	t.Helper()
	res := u.api(t, "GET", "/api/apps/"+appID+"/usage", nil)
	require.Equal(t, 200, res.Status, string(res.Body))
	return res.JSON(t)["usage"].(map[string]any)[metric].(map[string]any)["appUsed"].(float64)
}

func unique16() string { return fmt.Sprintf("%016x", time.Now().UnixNano()) }

// Every error row of POST /v1/classify-image (spec 1), before any model call.
func TestClassifyErrors(t *testing.T) {
	img := squareJPEG(t, color.White)
	before := visionCalls.Load()
	cases := []struct {
		name, query, ct string
		body            []byte
		headers         []string
		status          int
	}{
		{"wrong content type", "", "image/png", img, nil, 400},
		{"bytes are not the type", "", "image/webp", img, nil, 400},
		{"unreadable", "", "image/jpeg", []byte("not an image at all"), nil, 400},
		{"60000 x 60000 webp", "", "image/webp", webpDeclaring(60000, 60000), nil, 400},
		{"bad hash", "", "image/jpeg", img, []string{"X-Image-Hash", "not-hex-at-all!!"}, 400},
		{"unknown locale", "?locale=xx", "image/jpeg", img, nil, 400},
		{"limit out of bounds", "?limit=51", "image/jpeg", img, nil, 400},
		{"over 256 KB", "", "image/jpeg", append(img, make([]byte, 256<<10)...), nil, 413},
	}
	for _, c := range cases {
		r := classifyImage(t, c.query, c.ct, c.body, c.headers...)
		assert.Equal(t, c.status, r.Status, c.name+": "+string(r.Body))
		assert.Equal(t, "no-store", r.Header.Get("Cache-Control"), c.name)
		assert.NotEmpty(t, r.JSON(t)["error"], c.name)
	}
	assert.Equal(t, before, visionCalls.Load(), "no error reaches the model")
	r := call(t, "GET", "/v1/classify-image", nil)
	assert.Equal(t, 405, r.Status)
	assert.Equal(t, "POST", r.Header.Get("Allow"))
}

// An answer, then the same hash from the label cache without a model call.
func TestClassifyAnswerAndLabelCache(t *testing.T) {
	img := squareJPEG(t, color.RGBA{220, 20, 20, 255})
	hash := unique16()
	before := visionCalls.Load()
	r := classifyImage(t, "?locale=fr", "image/jpeg", img, "X-Image-Hash", hash)
	require.Equal(t, 200, r.Status, string(r.Body))
	assert.Equal(t, "no-store", r.Header.Get("Cache-Control"))
	body := r.JSON(t)
	assert.Equal(t, "A red square", body["caption"])
	assert.Equal(t, "Nice red!", body["reaction"])
	assert.Equal(t, []any{"red", "square", "colour"}, body["keywords"])
	assert.Equal(t, false, body["cached"])
	assert.Equal(t, false, body["degraded"])
	items := results(t, body)
	require.NotEmpty(t, items)
	assert.Equal(t, "🟥", items[0]["emoji"])
	assert.LessOrEqual(t, len(items), 8)
	assert.Equal(t, before+1, visionCalls.Load())

	eventually(t, 10*time.Second, func() bool {
		again := classifyImage(t, "?limit=3", "image/jpeg", img, "X-Image-Hash", strings.ToUpper(hash))
		return again.Status == 200 && again.JSON(t)["cached"] == true
	}, "the label was never cached")
	calls := visionCalls.Load()
	again := classifyImage(t, "?limit=3", "image/jpeg", img, "X-Image-Hash", hash).JSON(t)
	assert.Equal(t, true, again["cached"])
	assert.Equal(t, "A red square", again["caption"])
	assert.LessOrEqual(t, len(results(t, again)), 3)
	assert.Equal(t, calls, visionCalls.Load(), "a cache hit makes no model call")
}

// The AI binding fails: 503 vision_unavailable with Retry-After, never an
// empty 200 that reads as "nothing in this picture" (issue 27), and a
// keyed call is not counted.
func TestClassifyVisionUnavailable(t *testing.T) {
	const origin = "https://app.classify-outage.test"
	u, appID, q := keyedApp(t, origin)
	img := squareJPEG(t, color.RGBA{200, 20, 20, 255})
	aiDown(t)
	for range 3 {
		r := classifyImage(t, q, "image/jpeg", img, "Origin", origin)
		require.Equal(t, 503, r.Status, string(r.Body))
		assert.Equal(t, "30", r.Header.Get("Retry-After"))
		assert.Equal(t, "no-store", r.Header.Get("Cache-Control"))
		assert.Equal(t, "vision_unavailable", r.JSON(t)["error"])
		assert.NotEmpty(t, r.JSON(t)["message"])
	}
	ai.down.Store(false)
	require.Equal(t, 200, classifyImage(t, q, "image/jpeg", img, "Origin", origin).Status)
	used := func() float64 { return appUsed(t, u, appID, "image_classifications") }
	eventually(t, 40*time.Second, func() bool {
		get(t, "/v1/search?q=cat"+strings.Replace(q, "?", "&", 1), "Origin", origin) // lets the instance flush
		return used() >= 1
	}, "the classification after the outage was never counted")
	assert.Equal(t, 1.0, used(), "the three outage answers are not metered")
}

// Keyed calls count image_classifications; over the limit the model is
// not called and the answer says overLimit.
func TestClassifyMeteringAndOverLimit(t *testing.T) {
	const origin = "https://app.classify.test"
	u, appID, q := keyedApp(t, origin)
	img := squareJPEG(t, color.RGBA{20, 200, 20, 255})
	r := classifyImage(t, q, "image/jpeg", img, "Origin", origin)
	require.Equal(t, 200, r.Status, string(r.Body))
	assert.Equal(t, "A green square", r.JSON(t)["caption"])
	usage := func() float64 { return appUsed(t, u, appID, "image_classifications") }
	eventually(t, 40*time.Second, func() bool {
		classifyImage(t, q, "image/jpeg", img, "Origin", origin) // lets the instance flush
		return usage() >= 1
	}, "classifications were never counted")

	period := time.Now().UTC().Format("2006-01")
	sql(t, "INSERT INTO usage_monthly (app_id, period, metric, count) VALUES (?, ?, 'image_classifications', 100) ON CONFLICT (app_id, period, metric) DO UPDATE SET count = 100", appID, period)
	eventually(t, 70*time.Second, func() bool {
		r := classifyImage(t, q, "image/jpeg", img, "Origin", origin)
		return r.Status == 200 && r.JSON(t)["overLimit"] == true
	}, "never over the limit")
	calls := visionCalls.Load()
	body := classifyImage(t, q, "image/jpeg", img, "Origin", origin).JSON(t)
	assert.Equal(t, true, body["overLimit"])
	assert.Equal(t, false, body["degraded"])
	assert.Empty(t, results(t, body))
	assert.Equal(t, calls, visionCalls.Load(), "over the limit: no model call")
}
