package index

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/engine/packfmt"
)

// committed reads a committed file of the pack version.
func committed(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(packDir, name))
	require.NoError(t, err)
	return b
}

// TestDecodeCommitted: the committed binary indexes decode, with their
// locale, pack version and part; a main index needs English beside it.
func TestDecodeCommitted(t *testing.T) {
	for _, tc := range []struct{ file, locale, part string }{
		{packfmt.IndexFile("en"), "en", ""},
		{packfmt.IndexFile("tr"), "tr", ""},
		{packfmt.RelatedIndexFile, "en", packfmt.RelatedPart},
		{packfmt.PartIndexFile("zh", packfmt.EditorialPart), "zh", packfmt.EditorialPart},
	} {
		t.Run(tc.file, func(t *testing.T) {
			s, err := DecodeSegment(committed(t, tc.file))
			require.NoError(t, err)
			assert.Equal(t, tc.locale, s.Locale())
			assert.Equal(t, tc.part, s.Part())
			assert.Equal(t, packfmt.DefaultVersion, s.PackVersion())
		})
	}
	tr, err := DecodeSegment(committed(t, packfmt.IndexFile("tr")))
	require.NoError(t, err)
	_, err = New(tr)
	require.Error(t, err, "English is required")
}

// TestDecodeBadBytes: damaged or foreign bytes give ErrFormat, never a panic.
func TestDecodeBadBytes(t *testing.T) {
	en := committed(t, packfmt.IndexFile("en"))
	mutate := func(f func(b []byte) []byte) []byte { return f(bytes.Clone(en)) }
	for _, tc := range []struct {
		name string
		data []byte
	}{
		{"truncated", en[:len(en)/2]},
		{"header only", en[:16]},
		{"magic only", []byte(Magic)},
		{"JSON", []byte(`{"format":"emojisearch.pack"}`)},
		{"other version", mutate(func(b []byte) []byte { binary.LittleEndian.PutUint16(b[8:], 99); return b })},
		{"section out of bounds", mutate(func(b []byte) []byte { binary.LittleEndian.PutUint32(b[16+4:], 1<<30); return b })},
		{"section misaligned", mutate(func(b []byte) []byte { binary.LittleEndian.PutUint32(b[16+8:], 3); return b })},
		{"bad width", mutate(func(b []byte) []byte { b[16] = 3; return b })},
		{"posting out of range", mutate(func(b []byte) []byte {
			off := int(binary.LittleEndian.Uint32(b[16+12*25+8:])) // terms postings (section 25)
			for i := range 8 {
				b[off+i] = 0xff
			}
			return b
		})},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := DecodeSegment(tc.data)
			require.ErrorIs(t, err, ErrFormat)
		})
	}
}

// FuzzDecodeSegment: whatever the bytes, decoding and then searching what
// decoded never panics.
func FuzzDecodeSegment(f *testing.F) {
	en := committed(f, packfmt.IndexFile("en"))
	f.Add(en[:4096], 0, byte(0))
	f.Add(en[:1024], 100, byte(7))
	f.Fuzz(func(t *testing.T, head []byte, at int, v byte) {
		b := bytes.Clone(en)
		copy(b, head)
		if at >= 0 && at < len(b) {
			b[at] ^= v
		}
		s, err := DecodeSegment(b)
		if err != nil {
			return
		}
		ix, err := New(s)
		if err != nil {
			return
		}
		for _, q := range []string{"face", "笑"} {
			search(ix, q, everyLocale(ix, 24, true))
		}
	})
}
