package imageintake

import (
	"bytes"
	"compress/lzw"
	"compress/zlib"
	"encoding/binary"
	"hash/crc32"
	"io"
)

// Budgets of a raster image. An emoji is shown at 16 to 128 px; 1024 px a
// side leaves room for any export, while a decoded frame stays under 4 MB
// (RGBA). A header that claims more is a decompression bomb for every end
// user's browser, whatever the file's size: a 218 KB PNG of 15000x15000
// decodes to 225 MB (issue 31).
const (
	MaxSide   = 1024
	MaxFrames = 100
	// maxAnimationPixels bounds the pixels of all frames together: 100
	// frames at 256x256, 26 MB as RGBA.
	maxAnimationPixels = 100 * 256 * 256
)

// Refusals of the raster checks (issue 31).
var (
	ErrInvalid       = &Error{Code: "invalid_image", Status: 400, Reason: "the image is truncated or cannot be decoded"}
	ErrTooManyPixels = &Error{Code: "image_too_many_pixels", Status: 400, Reason: "the image is over 1024 px a side"}
	ErrTooManyFrames = &Error{Code: "image_too_many_frames", Status: 400, Reason: "the animation has too many frames"}
)

// dims checks one frame's size against the budget.
func dims(w, h uint64) error {
	switch {
	case w == 0 || h == 0:
		return refuse(ErrInvalid, "the image is %dx%d px", w, h)
	case w > MaxSide || h > MaxSide:
		return refuse(ErrTooManyPixels, "the image is %dx%d px, the limit is %d px a side", w, h, MaxSide)
	}
	return nil
}

// animation counts an image's frames and their pixels against the budgets.
type animation struct{ n, pixels uint64 }

// add checks one more frame of w x h.
func (a *animation) add(w, h uint64) error {
	if err := dims(w, h); err != nil {
		return err
	}
	a.n++
	a.pixels += w * h
	return frames(a.n, a.pixels)
}

// frames checks an animation's frame count and pixels so far.
func frames(n, pixels uint64) error {
	switch {
	case n > MaxFrames:
		return refuse(ErrTooManyFrames, "the animation has over %d frames", MaxFrames)
	case pixels > maxAnimationPixels:
		return refuse(ErrTooManyFrames, "the animation's frames hold over %d pixels together", maxAnimationPixels)
	}
	return nil
}

// checkPNG walks every chunk (lengths within the file, CRCs), checks IHDR
// and the APNG frame count against the budgets, and inflates the image
// data up to the size the header promises: a truncated or corrupt stream
// is refused, and nothing is inflated past that size.
func checkPNG(b []byte) error {
	rest := b[len(pngSig):]
	var w, h uint64
	var depth, colour, interlace byte
	var idat [][]byte
	var anim animation
	first, ended := true, false
	for !ended {
		if len(rest) < 12 {
			return refuse(ErrInvalid, "the PNG ends before its IEND chunk")
		}
		n := uint64(binary.BigEndian.Uint32(rest[:4]))
		if n > uint64(len(rest)-12) {
			return refuse(ErrInvalid, "a PNG chunk runs past the end of the file")
		}
		typ, data := string(rest[4:8]), rest[8:8+n]
		if crc32.ChecksumIEEE(rest[4:8+n]) != binary.BigEndian.Uint32(rest[8+n:12+n]) {
			return refuse(ErrInvalid, "the PNG chunk %q has a wrong CRC", typ)
		}
		rest = rest[12+n:]
		if first != (typ == "IHDR") {
			return refuse(ErrInvalid, "IHDR is not the PNG's first chunk")
		}
		first = false
		switch typ {
		case "IHDR":
			w, h = uint64(binary.BigEndian.Uint32(data[0:4])), uint64(binary.BigEndian.Uint32(data[4:8]))
			depth, colour, interlace = data[8], data[9], data[12]
			if err := dims(w, h); err != nil {
				return err
			}
			if bitsPerPixel(depth, colour) == 0 || data[10] != 0 || data[11] != 0 || interlace > 1 {
				return refuse(ErrInvalid, "the PNG header is not valid")
			}
		case "acTL":
			if n < 8 {
				return refuse(ErrInvalid, "the APNG animation chunk is short")
			}
			if err := frames(uint64(binary.BigEndian.Uint32(data[:4])), 0); err != nil {
				return err
			}
		case "fcTL":
			if n < 26 {
				return refuse(ErrInvalid, "an APNG frame chunk is short")
			}
			if err := anim.add(uint64(binary.BigEndian.Uint32(data[4:8])), uint64(binary.BigEndian.Uint32(data[8:12]))); err != nil {
				return err
			}
		case "IDAT":
			idat = append(idat, data)
		case "IEND":
			ended = true
		}
	}
	if len(idat) == 0 {
		return refuse(ErrInvalid, "the PNG has no image data")
	}
	return inflate(idat, rawSize(w, h, bitsPerPixel(depth, colour), interlace == 1))
}

// bitsPerPixel of a PNG colour type and bit depth; 0 for a combination
// the PNG specification does not allow.
func bitsPerPixel(depth, colour byte) uint64 {
	allowed := map[byte][]byte{0: {1, 2, 4, 8, 16}, 2: {8, 16}, 3: {1, 2, 4, 8}, 4: {8, 16}, 6: {8, 16}}
	channels := map[byte]uint64{0: 1, 2: 3, 3: 1, 4: 2, 6: 4}
	if bytes.IndexByte(allowed[colour], depth) < 0 {
		return 0
	}
	return uint64(depth) * channels[colour]
}

// rawSize is the filtered image data's size: each row is a filter byte and
// its packed pixels; an interlaced image is seven such passes.
func rawSize(w, h, bpp uint64, interlaced bool) uint64 {
	row := func(w, h uint64) uint64 {
		if w == 0 || h == 0 {
			return 0
		}
		return h * (1 + (w*bpp+7)/8)
	}
	if !interlaced {
		return row(w, h)
	}
	var n uint64
	for _, p := range [7][4]uint64{{0, 0, 8, 8}, {4, 0, 8, 8}, {0, 4, 4, 8}, {2, 0, 4, 4}, {0, 2, 2, 4}, {1, 0, 2, 2}, {0, 1, 1, 2}} {
		n += row((w+p[2]-1-p[0])/p[2], (h+p[3]-1-p[1])/p[3])
	}
	return n
}

// inflate reads the zlib stream split over the IDAT chunks up to want
// bytes; fewer, or a stream error, is an undecodable image.
func inflate(parts [][]byte, want uint64) error {
	readers := make([]io.Reader, len(parts))
	for i, p := range parts {
		readers[i] = bytes.NewReader(p)
	}
	zr, err := zlib.NewReader(io.MultiReader(readers...))
	if err != nil {
		return refuse(ErrInvalid, "the PNG image data is not a zlib stream")
	}
	if got, err := io.CopyN(io.Discard, zr, int64(want)); err != nil {
		return refuse(ErrInvalid, "the PNG image data holds %d of %d bytes", got, want)
	}
	return nil
}

// checkGIF walks the blocks to the trailer: the logical screen and every
// frame against the budgets, and each frame's LZW data decoded up to its
// pixel count.
func checkGIF(b []byte) error {
	w, h := uint64(binary.LittleEndian.Uint16(b[6:8])), uint64(binary.LittleEndian.Uint16(b[8:10]))
	if err := dims(w, h); err != nil {
		return err
	}
	rest := b[13:]
	if b[10]&0x80 != 0 {
		if n := 3 << (b[10]&7 + 1); !skip(&rest, n) {
			return refuse(ErrInvalid, "the GIF ends in its colour table")
		}
	}
	var anim animation
	for {
		if len(rest) == 0 {
			return refuse(ErrInvalid, "the GIF ends before its trailer")
		}
		kind := rest[0]
		rest = rest[1:]
		switch kind {
		case 0x3b:
			if anim.n == 0 {
				return refuse(ErrInvalid, "the GIF has no frame")
			}
			return nil
		case 0x21:
			if !skip(&rest, 1) {
				return refuse(ErrInvalid, "the GIF ends in an extension")
			}
			if _, ok := subBlocks(&rest); !ok {
				return refuse(ErrInvalid, "the GIF ends in an extension")
			}
		case 0x2c:
			if len(rest) < 10 {
				return refuse(ErrInvalid, "the GIF ends in a frame header")
			}
			fw, fh := uint64(binary.LittleEndian.Uint16(rest[4:6])), uint64(binary.LittleEndian.Uint16(rest[6:8]))
			packed := rest[8]
			rest = rest[9:]
			if err := anim.add(fw, fh); err != nil {
				return err
			}
			if packed&0x80 != 0 && !skip(&rest, 3<<(packed&7+1)) {
				return refuse(ErrInvalid, "the GIF ends in a frame's colour table")
			}
			if len(rest) == 0 {
				return refuse(ErrInvalid, "the GIF ends in a frame's image data")
			}
			lit := int(rest[0])
			rest = rest[1:]
			data, ok := subBlocks(&rest)
			if !ok {
				return refuse(ErrInvalid, "the GIF ends in a frame's image data")
			}
			if lit < 2 || lit > 8 {
				return refuse(ErrInvalid, "a GIF frame has an LZW code size of %d", lit)
			}
			r := lzw.NewReader(bytes.NewReader(data), lzw.LSB, lit)
			got, err := io.CopyN(io.Discard, r, int64(fw*fh))
			_ = r.Close()
			if err != nil {
				return refuse(ErrInvalid, "a GIF frame holds %d of %d pixels", got, fw*fh)
			}
		default:
			return refuse(ErrInvalid, "the GIF has an unknown block 0x%02x", kind)
		}
	}
}

// skip drops n bytes from the front of *b, or reports that there are not
// that many.
func skip(b *[]byte, n int) bool {
	if len(*b) < n {
		return false
	}
	*b = (*b)[n:]
	return true
}

// subBlocks reads GIF data sub-blocks up to the empty one and returns
// their bytes joined.
func subBlocks(b *[]byte) ([]byte, bool) {
	var out []byte
	for {
		if len(*b) == 0 {
			return nil, false
		}
		n := int((*b)[0])
		if n == 0 {
			*b = (*b)[1:]
			return out, true
		}
		if len(*b) < 1+n {
			return nil, false
		}
		out = append(out, (*b)[1:1+n]...)
		*b = (*b)[1+n:]
	}
}

// checkWebP walks the RIFF chunks and reads the size of the image from
// the bitstream header (VP8, VP8L) or the extended header (VP8X, and
// each ANMF frame of an animation), against the budgets.
func checkWebP(b []byte) error {
	size := uint64(binary.LittleEndian.Uint32(b[4:8]))
	rest := b[12 : 8+size]
	var images uint64
	var anim animation
	for len(rest) > 0 {
		if len(rest) < 8 {
			return refuse(ErrInvalid, "the WebP ends in a chunk header")
		}
		typ, n := string(rest[:4]), uint64(binary.LittleEndian.Uint32(rest[4:8]))
		if n > uint64(len(rest)-8) {
			return refuse(ErrInvalid, "a WebP chunk runs past the end of the file")
		}
		data := rest[8 : 8+n]
		rest = rest[8+n:]
		if n%2 == 1 && len(rest) > 0 {
			rest = rest[1:] // chunks are padded to an even size
		}
		switch typ {
		case "VP8X":
			if n < 10 {
				return refuse(ErrInvalid, "the WebP extended header is short")
			}
			if err := dims(le24(data[4:])+1, le24(data[7:])+1); err != nil {
				return err
			}
		case "VP8 ", "VP8L":
			w, h, err := bitstreamSize(typ, data)
			if err != nil {
				return err
			}
			if err := dims(w, h); err != nil {
				return err
			}
			images++
		case "ANMF":
			if n < 16 {
				return refuse(ErrInvalid, "a WebP frame is short")
			}
			if err := anim.add(le24(data[6:])+1, le24(data[9:])+1); err != nil {
				return err
			}
			images++
		}
	}
	if images == 0 {
		return refuse(ErrInvalid, "the WebP holds no image")
	}
	return nil
}

// bitstreamSize reads the picture size from a VP8 key frame header or a
// VP8L header.
func bitstreamSize(typ string, d []byte) (w, h uint64, err error) {
	if typ == "VP8L" {
		if len(d) < 5 || d[0] != 0x2f {
			return 0, 0, refuse(ErrInvalid, "the WebP lossless header is not valid")
		}
		bits := binary.LittleEndian.Uint32(d[1:5])
		if bits>>29 != 0 {
			return 0, 0, refuse(ErrInvalid, "the WebP lossless version is unknown")
		}
		return uint64(bits&0x3fff) + 1, uint64(bits>>14&0x3fff) + 1, nil
	}
	if len(d) < 10 || d[0]&1 != 0 || !bytes.Equal(d[3:6], []byte{0x9d, 0x01, 0x2a}) {
		return 0, 0, refuse(ErrInvalid, "the WebP lossy header is not a key frame")
	}
	if part := uint64(d[0])>>5 | uint64(d[1])<<3 | uint64(d[2])<<11; part > uint64(len(d)-10) {
		return 0, 0, refuse(ErrInvalid, "the WebP lossy frame is truncated")
	}
	return uint64(binary.LittleEndian.Uint16(d[6:8]) & 0x3fff), uint64(binary.LittleEndian.Uint16(d[8:10]) & 0x3fff), nil
}

func le24(b []byte) uint64 { return uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 }
