// Package imagebombs generates, for tests, a corpus of hostile raster
// images (decompression bombs, headers that lie, truncated and undecodable
// files, animations with too many frames) and a set of ordinary emoji
// images, so the intake's unit tests and the e2e suite refuse and accept
// the same files on every upload path (issue 31). Nothing is committed as
// a binary: each file is built from the format's own rules or by the
// standard library's encoders.
package imagebombs

import (
	"bytes"
	"compress/zlib"
	"encoding/base64"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/gif"
	"image/png"
	"sync"
)

// Bomb is one hostile file and the intake's error code for it.
type Bomb struct {
	Name  string
	Bytes []byte
	Code  string
}

// Corpus returns every bomb, built once per process (the biggest, a
// 15000x15000 PNG of 218 KB, takes a few hundred ms to deflate natively and
// seconds in js/wasm). Callers must not change the bytes.
func Corpus() []Bomb { return corpus() }

var corpus = sync.OnceValue(build)

func build() []Bomb {
	smallPNG := encodePNG(image.NewNRGBA(image.Rect(0, 0, 64, 64)))
	gifs := encodeGIF(2, 16)
	return []Bomb{
		{"png 15000x15000, 218 KB, 225 MB decoded", pngOf(15000, 15000, 8, 0, zeros(15000, 15001)), "image_too_many_pixels"},
		{"png header of a million px a side", pngOf(1_000_000, 1_000_000, 8, 6, deflate([]byte{0})), "image_too_many_pixels"},
		{"png 1025 px wide", pngOf(1025, 1, 8, 0, zeros(1, 1026)), "image_too_many_pixels"},
		{"png truncated to 40 bytes", smallPNG[:40], "invalid_image"},
		{"png without IEND", smallPNG[:len(smallPNG)-12], "invalid_image"},
		{"png image data that is not zlib", pngOf(16, 16, 8, 0, []byte("not a zlib stream at all")), "invalid_image"},
		{"png image data short of the header's size", pngOf(64, 64, 8, 6, zeros(1, 100)), "invalid_image"},
		{"png chunk with a wrong CRC", flipCRC(smallPNG), "invalid_image"},
		{"png of zero width", pngOf(0, 16, 8, 0, zeros(16, 1)), "invalid_image"},
		{"apng claiming 10000 frames", apng(10000, 0), "image_too_many_frames"},
		{"apng claiming 5 frames and holding 101", apng(5, 101), "image_too_many_frames"},
		{"gif screen 65535x65535", gifScreen(gifs, 65535, 65535), "image_too_many_pixels"},
		{"gif frame 65535x65535 in a small screen", gifFrame(gifs, 65535, 65535), "image_too_many_pixels"},
		{"gif of 101 frames", encodeGIF(101, 1), "image_too_many_frames"},
		{"gif of 30 frames at 512x512", encodeGIF(30, 512), "image_too_many_frames"},
		{"gif without its trailer", gifs[:len(gifs)-1], "invalid_image"},
		{"gif cut in a frame", gifs[:len(gifs)/2], "invalid_image"},
		{"gif with LZW garbage", lzwGarbage(gifs), "invalid_image"},
		{"webp lossless header of 16384 px a side", webpVP8L(16384, 16384), "image_too_many_pixels"},
		{"webp extended header of a million px a side", webpVP8X(1_000_000, 1_000_000, nil), "image_too_many_pixels"},
		{"webp lossy header of 16383 px a side", webpVP8(16383, 16383), "image_too_many_pixels"},
		{"webp animation of 101 frames", webpAnim(101), "image_too_many_frames"},
		{"webp extended header and no image", webpVP8X(16, 16, nil), "invalid_image"},
		{"webp lossy frame that is not a key frame", webpBadVP8(), "invalid_image"},
	}
}

// Ordinary is what emoji look like: a 128 px PNG of each kind the
// standard encoder writes (1-bit palette, 8-bit RGBA, 16-bit), a 10-frame
// 128 px GIF, the smallest lossless WebP, and a 100-frame WebP animation
// of 64 px frames.
func Ordinary() map[string][]byte {
	pal := image.NewPaletted(image.Rect(0, 0, 128, 128), color.Palette{color.Black, color.White})
	rgba := image.NewNRGBA(image.Rect(0, 0, 128, 128))
	deep := image.NewNRGBA64(image.Rect(0, 0, 128, 128))
	for i := 0; i < 128; i++ {
		pal.SetColorIndex(i, i, 1)
		rgba.Set(i, 127-i, color.NRGBA{255, byte(i), 0, 255})
		deep.Set(i, i, color.NRGBA64{0, 0, 65535, 40000})
	}
	webp, _ := base64.StdEncoding.DecodeString("UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==")
	return map[string][]byte{
		"png-1bit": encodePNG(pal), "png-rgba": encodePNG(rgba), "png-16bit": encodePNG(deep),
		"gif-animated": encodeGIF(10, 128), "webp-lossless": webp, "webp-animated": webpAnim(100),
	}
}

func encodePNG(img image.Image) []byte {
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// encodeGIF is n frames of side px, each with a diagonal line.
func encodeGIF(n, side int) []byte {
	g := &gif.GIF{}
	for f := 0; f < n; f++ {
		img := image.NewPaletted(image.Rect(0, 0, side, side), color.Palette{color.White, color.Black})
		for i := 0; i < side; i++ {
			img.SetColorIndex(i, (i+f)%side, 1)
		}
		g.Image, g.Delay = append(g.Image, img), append(g.Delay, 5)
	}
	var b bytes.Buffer
	if err := gif.EncodeAll(&b, g); err != nil {
		panic(err)
	}
	return b.Bytes()
}

func chunk(typ string, data []byte) []byte {
	out := binary.BigEndian.AppendUint32(nil, uint32(len(data)))
	out = append(out, typ...)
	out = append(out, data...)
	return binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(out[4:]))
}

// pngOf writes a PNG whose header says w x h at depth and colour type,
// holding idat as its image data.
func pngOf(w, h uint32, depth, colour byte, idat []byte) []byte {
	hdr := binary.BigEndian.AppendUint32(nil, w)
	hdr = binary.BigEndian.AppendUint32(hdr, h)
	hdr = append(hdr, depth, colour, 0, 0, 0)
	out := []byte("\x89PNG\r\n\x1a\n")
	out = append(out, chunk("IHDR", hdr)...)
	out = append(out, chunk("IDAT", idat)...)
	return append(out, chunk("IEND", nil)...)
}

// zeros deflates rows rows of n zero bytes (filter byte included).
func zeros(rows, n int) []byte {
	var b bytes.Buffer
	zw, _ := zlib.NewWriterLevel(&b, zlib.BestCompression)
	row := make([]byte, n)
	for i := 0; i < rows; i++ {
		_, _ = zw.Write(row)
	}
	_ = zw.Close()
	return b.Bytes()
}

func deflate(p []byte) []byte {
	var b bytes.Buffer
	zw := zlib.NewWriter(&b)
	_, _ = zw.Write(p)
	_ = zw.Close()
	return b.Bytes()
}

// flipCRC breaks the CRC of the IHDR chunk.
func flipCRC(p []byte) []byte {
	out := bytes.Clone(p)
	out[29] ^= 0xff
	return out
}

// apng is a 16 px APNG whose acTL claims claimed frames and which holds
// frames fcTL chunks.
func apng(claimed, frames uint32) []byte {
	hdr := binary.BigEndian.AppendUint32(nil, 16)
	hdr = binary.BigEndian.AppendUint32(hdr, 16)
	hdr = append(hdr, 8, 0, 0, 0, 0)
	out := []byte("\x89PNG\r\n\x1a\n")
	out = append(out, chunk("IHDR", hdr)...)
	out = append(out, chunk("acTL", binary.BigEndian.AppendUint32(binary.BigEndian.AppendUint32(nil, claimed), 0))...)
	for i := uint32(0); i < frames; i++ {
		fc := binary.BigEndian.AppendUint32(nil, i*2)
		for _, v := range []uint32{16, 16, 0, 0} {
			fc = binary.BigEndian.AppendUint32(fc, v)
		}
		fc = append(fc, 0, 1, 0, 100, 0, 0)
		out = append(out, chunk("fcTL", fc)...)
		if i == 0 {
			out = append(out, chunk("IDAT", zeros(16, 17))...)
		}
	}
	if frames == 0 {
		out = append(out, chunk("IDAT", zeros(16, 17))...)
	}
	return append(out, chunk("IEND", nil)...)
}

// gifScreen rewrites a GIF's logical screen size.
func gifScreen(g []byte, w, h uint16) []byte {
	out := bytes.Clone(g)
	binary.LittleEndian.PutUint16(out[6:], w)
	binary.LittleEndian.PutUint16(out[8:], h)
	return out
}

// gifFrame rewrites the first frame's size (encodeGIF writes no global
// colour table: the first image descriptor follows the extensions).
func gifFrame(g []byte, w, h uint16) []byte {
	out := bytes.Clone(g)
	i := bytes.IndexByte(out[13:], 0x2c) + 13
	binary.LittleEndian.PutUint16(out[i+5:], w)
	binary.LittleEndian.PutUint16(out[i+7:], h)
	return out
}

// lzwGarbage keeps a GIF's structure and replaces its first frame's image
// data with bytes that do not decode to the frame's pixels.
func lzwGarbage(g []byte) []byte {
	out := bytes.Clone(g)
	i := bytes.IndexByte(out[13:], 0x2c) + 13 + 10
	if out[i-1]&0x80 != 0 {
		i += 3 << (out[i-1]&7 + 1)
	}
	// after the LZW code size: the first sub-block; end the data at once
	// with a clear code and an end code (no pixels).
	n := int(out[i+1])
	block := out[i+2 : i+2+n]
	for j := range block {
		block[j] = 0
	}
	block[0] = 0x04 | 0x05<<3 // code size 2: clear (4) then end (5)
	return out
}

func riff(chunks ...[]byte) []byte {
	body := []byte("WEBP")
	for _, c := range chunks {
		body = append(body, c...)
	}
	out := append([]byte("RIFF"), binary.LittleEndian.AppendUint32(nil, uint32(len(body)))...)
	return append(out, body...)
}

func webpChunk(typ string, data []byte) []byte {
	out := append([]byte(typ), binary.LittleEndian.AppendUint32(nil, uint32(len(data)))...)
	out = append(out, data...)
	if len(data)%2 == 1 {
		out = append(out, 0)
	}
	return out
}

func le24(v uint32) []byte { return []byte{byte(v), byte(v >> 8), byte(v >> 16)} }

func webpVP8L(w, h uint32) []byte {
	bits := (w - 1) | (h-1)<<14
	return riff(webpChunk("VP8L", append([]byte{0x2f}, binary.LittleEndian.AppendUint32(nil, bits)...)))
}

func vp8Frame(w, h uint16, key bool) []byte {
	tag := byte(0)
	if !key {
		tag = 1
	}
	d := []byte{tag, 0, 0, 0x9d, 0x01, 0x2a}
	d = binary.LittleEndian.AppendUint16(d, w)
	return binary.LittleEndian.AppendUint16(d, h)
}

func webpVP8(w, h uint16) []byte { return riff(webpChunk("VP8 ", vp8Frame(w, h, true))) }

func webpBadVP8() []byte { return riff(webpChunk("VP8 ", vp8Frame(16, 16, false))) }

func webpVP8X(w, h uint32, rest []byte) []byte {
	x := append([]byte{0x02, 0, 0, 0}, le24(w-1)...)
	x = append(x, le24(h-1)...)
	return riff(webpChunk("VP8X", x), rest)
}

// webpAnim is an animation of n 64 px frames, each a lossless image.
func webpAnim(n int) []byte {
	frame := webpChunk("VP8L", append([]byte{0x2f}, binary.LittleEndian.AppendUint32(nil, 63|63<<14)...))
	anim := webpChunk("ANIM", make([]byte, 6))
	for i := 0; i < n; i++ {
		f := append(le24(0), le24(0)...)
		f = append(f, le24(63)...)
		f = append(f, le24(63)...)
		f = append(f, le24(50)...)
		f = append(f, 0)
		anim = append(anim, webpChunk("ANMF", append(f, frame...))...)
	}
	return webpVP8X(64, 64, anim)
}
