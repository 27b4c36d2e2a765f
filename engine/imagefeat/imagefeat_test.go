package imagefeat

import (
	"bytes"
	"image"
	"image/color"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func disc(size, radius int, c color.Color, transparent bool) image.Image {
	img := image.NewNRGBA(image.Rect(0, 0, size, size))
	for y := 0; y < size; y++ {
		for x := 0; x < size; x++ {
			dx, dy := x-size/2, y-size/2
			switch {
			case dx*dx+dy*dy < radius*radius:
				img.Set(x, y, c)
			case !transparent:
				img.Set(x, y, color.White)
			}
		}
	}
	return img
}

// The same drawing at another size and padding, transparent or on white,
// has nearly the same vector; another colour is far.
func TestOfIsScaleAndBackgroundInvariant(t *testing.T) {
	red := color.NRGBA{220, 40, 60, 255}
	a := Of(disc(64, 28, red, true))
	b := Of(disc(200, 60, red, false))
	c := Of(disc(64, 28, color.NRGBA{40, 90, 220, 255}, true))
	assert.Less(t, Distance(&a, &b)*10, Distance(&a, &c))
	blank := Of(image.NewNRGBA(image.Rect(0, 0, 8, 8)))
	assert.Equal(t, uint8(255), blank[0], "a blank picture is white")
	assert.Equal(t, Vector{}, Of(image.NewNRGBA(image.Rect(0, 0, 0, 0))))
}

func TestIndexRoundTripAndNearest(t *testing.T) {
	x := &Index{Emoji: []string{"🔴", "🔵"}, Vecs: []Vector{
		Of(disc(64, 28, color.NRGBA{220, 40, 60, 255}, true)),
		Of(disc(64, 28, color.NRGBA{40, 90, 220, 255}, true)),
	}}
	var b bytes.Buffer
	require.NoError(t, x.Write(&b))
	back, err := Read(b.Bytes())
	require.NoError(t, err)
	assert.Equal(t, x, back)
	q := Of(disc(100, 45, color.NRGBA{200, 50, 50, 255}, false))
	assert.Equal(t, "🔴", back.Nearest(&q, 1)[0].Emoji)
	for _, bad := range [][]byte{nil, []byte("EVIS"), b.Bytes()[:20], append([]byte("XXXX"), b.Bytes()[4:]...)} {
		_, err := Read(bad)
		assert.ErrorIs(t, err, ErrIndex)
	}
}
