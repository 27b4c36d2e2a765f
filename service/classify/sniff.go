package classify

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// Image limits. The Worker never decodes pixels (the vision model does),
// but an image declaring absurd dimensions is refused here, from its
// header, before anything is allocated for it or sent on.
const (
	MaxBytes  = 256 << 10
	MaxSide   = 4096
	MaxPixels = 4096 * 4096
)

// Formats read from the bytes.
const (
	JPEG = "jpeg"
	WebP = "webp"
)

// ErrUnreadable wraps every reason an image cannot be used (400).
var ErrUnreadable = errors.New("unreadable image")

// Sniff reads the format and dimensions of a JPEG or WebP image from its
// header only: the JPEG start-of-frame segment (walking the segments
// before it), or the WebP VP8, VP8L or VP8X chunk. It never panics and
// reads nothing past len(b).
func Sniff(b []byte) (format string, w, h int, err error) {
	switch {
	case len(b) >= 3 && b[0] == 0xFF && b[1] == 0xD8 && b[2] == 0xFF:
		format = JPEG
		w, h, err = jpegSize(b)
	case len(b) >= 16 && string(b[0:4]) == "RIFF" && string(b[8:12]) == "WEBP":
		format = WebP
		w, h, err = webpSize(b)
	default:
		return "", 0, 0, fmt.Errorf("%w: not a JPEG or WebP file", ErrUnreadable)
	}
	if err != nil {
		return format, 0, 0, err
	}
	if w <= 0 || h <= 0 || w > MaxSide || h > MaxSide || w*h > MaxPixels {
		return format, w, h, fmt.Errorf("%w: %dx%d pixels (at most %d per side; clients downscale to about 384)", ErrUnreadable, w, h, MaxSide)
	}
	return format, w, h, nil
}

func jpegSize(b []byte) (int, int, error) {
	i := 2
	for i+4 <= len(b) {
		if b[i] != 0xFF {
			return 0, 0, fmt.Errorf("%w: broken JPEG segment", ErrUnreadable)
		}
		m := b[i+1]
		if m == 0xFF { // fill byte
			i++
			continue
		}
		if m == 0x01 || (m >= 0xD0 && m <= 0xD8) { // markers without a length
			i += 2
			continue
		}
		n := int(binary.BigEndian.Uint16(b[i+2:]))
		if n < 2 || i+2+n > len(b) {
			return 0, 0, fmt.Errorf("%w: truncated JPEG", ErrUnreadable)
		}
		switch {
		case m >= 0xC0 && m <= 0xCF && m != 0xC4 && m != 0xC8 && m != 0xCC:
			if n < 7 {
				return 0, 0, fmt.Errorf("%w: short JPEG frame header", ErrUnreadable)
			}
			h := int(binary.BigEndian.Uint16(b[i+5:]))
			w := int(binary.BigEndian.Uint16(b[i+7:]))
			return w, h, nil
		case m == 0xDA || m == 0xD9:
			return 0, 0, fmt.Errorf("%w: JPEG without a frame header", ErrUnreadable)
		}
		i += 2 + n
	}
	return 0, 0, fmt.Errorf("%w: truncated JPEG", ErrUnreadable)
}

func webpSize(b []byte) (int, int, error) {
	if len(b) < 30 {
		return 0, 0, fmt.Errorf("%w: truncated WebP", ErrUnreadable)
	}
	switch string(b[12:16]) {
	case "VP8 ":
		if b[23] != 0x9D || b[24] != 0x01 || b[25] != 0x2A {
			return 0, 0, fmt.Errorf("%w: bad VP8 start code", ErrUnreadable)
		}
		return int(binary.LittleEndian.Uint16(b[26:]) & 0x3FFF), int(binary.LittleEndian.Uint16(b[28:]) & 0x3FFF), nil
	case "VP8L":
		if b[20] != 0x2F {
			return 0, 0, fmt.Errorf("%w: bad VP8L signature", ErrUnreadable)
		}
		v := binary.LittleEndian.Uint32(b[21:])
		return int(v&0x3FFF) + 1, int((v>>14)&0x3FFF) + 1, nil
	case "VP8X":
		w := int(uint32(b[24])|uint32(b[25])<<8|uint32(b[26])<<16) + 1
		h := int(uint32(b[27])|uint32(b[28])<<8|uint32(b[29])<<16) + 1
		return w, h, nil
	}
	return 0, 0, fmt.Errorf("%w: unknown WebP chunk", ErrUnreadable)
}
