package filestore

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestCursorRoundTrip(t *testing.T) {
	tests := []struct {
		name   string
		cursor string
		want   string
	}{
		{"standard", EncodeCursor("emoji/😀"), "emoji/😀"},
		{"no padding", "YWJj", "abc"},
		{"padded", "YWI=", "ab"},
		{"url alphabet", "-_8", "\xfb\xff"},
		{"junk skipped", "Y W\nJj!", "abc"},
		{"lone char", "YWJjZ", "abc"},
		{"empty", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, DecodeCursor(tt.cursor))
		})
	}
}
