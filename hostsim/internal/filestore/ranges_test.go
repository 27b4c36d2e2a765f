package filestore

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestParseRanges(t *testing.T) {
	const size = 100
	tests := []struct {
		header string
		want   []ByteRange
		ok     bool
	}{
		{"bytes=0-9", []ByteRange{{0, 9}}, true},
		{"BYTES = 0-9", []ByteRange{{0, 9}}, true},
		{"  bytes=  10 - 19  ", []ByteRange{{10, 19}}, true},
		{"bytes=90-200", []ByteRange{{90, 99}}, true},
		{"bytes=95-", []ByteRange{{95, 99}}, true},
		{"bytes=-5", []ByteRange{{95, 99}}, true},
		{"bytes=0-9, -5", []ByteRange{{0, 9}, {95, 99}}, true},
		{"bytes=", nil, true},
		{"bytes=   ", nil, true},
		{"bytes=-100", nil, true},                   // suffix covers everything
		{"bytes=-0", nil, true},                     // empty suffix skipped
		{"bytes=-0,0-1", []ByteRange{{0, 1}}, true}, // and the rest kept
		{"bytes=-99999999999999999999", nil, true},
		{"bytes=5-4", nil, false},
		{"bytes=100-", nil, false},
		{"bytes=100-150", nil, false},
		{"bytes=99999999999999999999-", nil, false},
		{"bytes=-", nil, false},
		{"bytes=a-b", nil, false},
		{"bytes=1-2-3", nil, false},
		{"bytes=0-1,", nil, false},
		{"items=0-1", nil, false},
		{"", nil, false},
		{"bytes 0-1", nil, false},
		{"bytes=\t0-1", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.header, func(t *testing.T) {
			got, ok := ParseRanges(tt.header, size)
			assert.Equal(t, tt.ok, ok)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestByteRangeLen(t *testing.T) {
	assert.Equal(t, int64(10), ByteRange{0, 9}.Len())
}
