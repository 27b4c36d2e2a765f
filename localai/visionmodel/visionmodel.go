// Package visionmodel is hostsim's local stand-in for the Workers AI vision
// model the service calls (@cf/meta/llama-3.2-11b-vision-instruct), so
// POST /v1/classify-image works offline. It is real, not canned: it
// decodes the uploaded JPEG, WebP or PNG, finds the nearest emoji artwork
// of an open set by its colour and shape layout (engine/imagefeat over
// Noto's artwork, packs/models/emoji-vision.noto.evis, built by
// packs/cmd/buildvision), and writes the label the production prompt asks
// for from that emoji's CLDR name and keywords (the English pack).
//
// What it recognises: emoji-like art and stickers drawn in the flat style
// of emoji sets (top-5 0.56 on Twemoji drawings it never saw, BENCHMARKS.md).
// What it does not: photographs, scenes, text; it always answers with the
// nearest emoji, however far.
//
// It answers env.AI.run(model, {messages, image: number[], max_tokens})
// with {response: text}, as Workers AI does; Handler serves the same over
// the Workers AI REST API.
package visionmodel

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/jpeg"
	"image/png"
	"os"
	"strings"
	"unicode"

	"golang.org/x/image/webp"

	"github.com/emojisearch/emojisearch/engine/imagefeat"
	"github.com/emojisearch/emojisearch/engine/packfmt"
	"github.com/emojisearch/emojisearch/localai/aimodel"
)

// Name is the Workers AI model this stands in for.
const Name = "@cf/meta/llama-3.2-11b-vision-instruct"

// MaxImageBytes bounds an image input (Workers AI refuses larger inputs
// too; the service sends at most 256 KB).
const MaxImageBytes = 10 << 20

// MaxPixels bounds the decoded picture: the header is read first and a
// bigger picture is refused before its pixels are allocated.
const MaxPixels = 4096 * 4096

// Model is the local vision model.
type Model struct {
	index *imagefeat.Index
	names map[string]entry // by emoji without U+FE0F
}

type entry struct {
	label    string
	keywords []string
}

// Open loads the artwork index and the English core pack (names and
// keywords).
func Open(indexPath, packPath string) (*Model, error) {
	raw, err := os.ReadFile(indexPath)
	if err != nil {
		return nil, err
	}
	idx, err := imagefeat.Read(raw)
	if err != nil {
		return nil, err
	}
	pb, err := os.ReadFile(packPath)
	if err != nil {
		return nil, err
	}
	pack, err := packfmt.Decode(pb)
	if err != nil {
		return nil, err
	}
	m := &Model{index: idx, names: map[string]entry{}}
	for _, r := range pack.Rows {
		m.names[key(r.Emoji)] = entry{label: r.Label, keywords: r.Phrases[packfmt.FieldKeyword]}
	}
	return m, nil
}

func key(e string) string { return strings.ReplaceAll(e, "\uFE0F", "") }

// Run answers the vision model; other model names are refused as Workers
// AI refuses unknown models.
func (m *Model) Run(ctx context.Context, model string, inputs any) (any, error) {
	if model != Name {
		return nil, &aimodel.Error{Code: aimodel.CodeNoSuchModel, Message: "No such model " + model}
	}
	in, ok := inputs.(map[string]any)
	if !ok {
		return nil, &aimodel.Error{Code: aimodel.CodeInvalidInput, Message: "Error: Type mismatch of '/', 'object' expected"}
	}
	if msgs, _ := in["messages"].([]any); len(msgs) == 0 {
		if _, ok := in["prompt"].(string); !ok {
			return nil, &aimodel.Error{Code: aimodel.CodeInvalidInput, Message: "Error: required properties at '/' are 'messages' or 'prompt'"}
		}
	}
	img, err := imageBytes(in["image"])
	if err != nil {
		return nil, err
	}
	text, err := m.describe(img)
	if err != nil {
		return nil, err
	}
	return map[string]any{"response": text}, nil
}

// imageBytes reads the image input: an array of integers 0..255.
func imageBytes(v any) ([]byte, error) {
	arr, ok := v.([]any)
	if !ok || len(arr) == 0 {
		return nil, &aimodel.Error{Code: aimodel.CodeInvalidInput, Message: "Error: required properties at '/' are 'image'"}
	}
	if len(arr) > MaxImageBytes {
		return nil, &aimodel.Error{Code: aimodel.CodeInvalidInput, Message: "Error: image too large"}
	}
	b := make([]byte, len(arr))
	for i, x := range arr {
		f, ok := x.(float64)
		if !ok || f < 0 || f > 255 || f != float64(int(f)) {
			return nil, &aimodel.Error{Code: aimodel.CodeInvalidInput, Message: fmt.Sprintf("Error: Type mismatch of '/image/%d'", i)}
		}
		b[i] = byte(f)
	}
	return b, nil
}

// Decode reads a JPEG, WebP or PNG picture, refusing one that declares
// more than MaxPixels before decoding its pixels.
func Decode(b []byte) (image.Image, error) {
	cfg, format, err := decodeConfig(b)
	if err != nil {
		return nil, err
	}
	if cfg.Width <= 0 || cfg.Height <= 0 || cfg.Width*cfg.Height > MaxPixels {
		return nil, fmt.Errorf("visionmodel: %dx%d pixels is too large", cfg.Width, cfg.Height)
	}
	switch format {
	case "jpeg":
		return jpeg.Decode(bytes.NewReader(b))
	case "webp":
		img, err := webp.Decode(bytes.NewReader(b))
		if err == nil {
			fullRange(img)
		}
		return img, err
	default:
		return png.Decode(bytes.NewReader(b))
	}
}

func decodeConfig(b []byte) (image.Config, string, error) {
	switch {
	case len(b) >= 3 && b[0] == 0xFF && b[1] == 0xD8:
		c, err := jpeg.DecodeConfig(bytes.NewReader(b))
		return c, "jpeg", err
	case len(b) >= 12 && string(b[:4]) == "RIFF" && string(b[8:12]) == "WEBP":
		c, err := webp.DecodeConfig(bytes.NewReader(b))
		return c, "webp", err
	case len(b) >= 8 && string(b[1:4]) == "PNG":
		c, err := png.DecodeConfig(bytes.NewReader(b))
		return c, "png", err
	}
	return image.Config{}, "", fmt.Errorf("visionmodel: not a JPEG, WebP or PNG picture")
}

// describe labels a picture: the nearest emoji's name as caption and
// reaction, its keywords, and the five nearest emoji. An unreadable
// picture gets the answer a chat model gives, in prose (the service then
// degrades).
func (m *Model) describe(b []byte) (string, error) {
	img, err := Decode(b)
	if err != nil {
		return "I'm sorry, but I can't make out this image.", nil
	}
	v := imagefeat.Of(img)
	near := m.index.Nearest(&v, 5)
	if len(near) == 0 {
		return "I can't tell what this image shows.", nil
	}
	top := m.names[key(near[0].Emoji)]
	label := top.label
	if label == "" {
		label = "emoji"
	}
	keywords := strings.Fields(strings.ToLower(label))
	for _, k := range top.keywords {
		if len(keywords) >= 6 {
			break
		}
		if !contains(keywords, k) {
			keywords = append(keywords, k)
		}
	}
	emoji := make([]string, len(near))
	for i, n := range near {
		emoji[i] = n.Emoji
	}
	out, err := json.Marshal(map[string]any{
		"caption":  "An emoji-style picture of " + article(label) + label + ".",
		"reaction": capitalised(label) + "!",
		"keywords": keywords[:min(6, len(keywords))],
		"emoji":    emoji,
	})
	return string(out), err
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

func article(label string) string {
	if strings.HasPrefix(label, "flag") {
		return "the "
	}
	if strings.IndexAny(label, "aeiou") == 0 {
		return "an "
	}
	return "a "
}

func capitalised(s string) string {
	r := []rune(s)
	if len(r) > 0 {
		r[0] = unicode.ToUpper(r[0])
	}
	return string(r)
}

// fullRange stretches the limited-range YCbCr (luma 16..235, chroma
// 16..240) that lossy WebP stores to the full range Go's colour model
// reads: without it, white decodes as light grey (235) and every lossy
// WebP looks like a grey card.
func fullRange(img image.Image) {
	var p *image.YCbCr
	switch x := img.(type) {
	case *image.YCbCr:
		p = x
	case *image.NYCbCrA:
		p = &x.YCbCr
	default:
		return
	}
	for i, y := range p.Y {
		p.Y[i] = uint8(max(0, min(255, (int(y)-16)*255/219)))
	}
	for _, plane := range [][]uint8{p.Cb, p.Cr} {
		for i, c := range plane {
			plane[i] = uint8(max(0, min(255, (int(c)-128)*255/224+128)))
		}
	}
}
