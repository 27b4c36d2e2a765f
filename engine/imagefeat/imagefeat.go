// Package imagefeat turns a picture into a small feature vector for the
// nearest-emoji search of hostsim's local vision model: the picture is laid
// over white (emoji artwork is transparent, uploads are not), cropped to
// what is drawn on it, squared, and reduced to a colour layout (the mean
// luma and chroma of each cell of a Grid x Grid grid) plus a finer luma
// layout with its mean removed (the shape). Two drawings of one emoji by
// different vendors share their colours and rough shape, which is what
// this compares; photographs are not emoji-like and are not recognised.
//
// It is used natively only (hostsim, the index build): image decoders must
// not enter the Worker.
package imagefeat

import (
	"image"
	"image/color"
)

// Layout sizes.
const (
	Grid      = 8  // colour cells per side
	ShapeGrid = 12 // luma cells per side
	// Dims is the length of a feature vector.
	Dims = Grid*Grid*3 + ShapeGrid*ShapeGrid
)

// Vector is a feature vector: colour layout (Y, Cb, Cr per cell), then the
// shape layout (luma minus its mean, offset by 128).
type Vector [Dims]uint8

// inkThreshold is how far from white (0..255 per channel, summed) a pixel
// must be to count as drawn when cropping.
const inkThreshold = 48

// Of computes the feature vector of a picture. It reads each pixel once at
// most twice and allocates a few small buffers.
func Of(img image.Image) Vector {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	var v Vector
	if w <= 0 || h <= 0 {
		return v
	}
	// Pixels over white, as 8-bit RGB.
	px := make([]uint8, 3*w*h)
	minX, minY, maxX, maxY := w, h, -1, -1
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			r, g, bl, a := img.At(b.Min.X+x, b.Min.Y+y).RGBA()
			// Premultiplied: over white is c + (1-a)*white.
			R := uint8((r + (0xFFFF - a)) >> 8)
			G := uint8((g + (0xFFFF - a)) >> 8)
			B := uint8((bl + (0xFFFF - a)) >> 8)
			i := 3 * (y*w + x)
			px[i], px[i+1], px[i+2] = R, G, B
			if int(255-R)+int(255-G)+int(255-B) > inkThreshold {
				minX, minY, maxX, maxY = min(minX, x), min(minY, y), max(maxX, x), max(maxY, y)
			}
		}
	}
	if maxX < 0 { // blank: the whole picture
		minX, minY, maxX, maxY = 0, 0, w-1, h-1
	}
	// Square box around the drawing, centred.
	bw, bh := maxX-minX+1, maxY-minY+1
	side := max(bw, bh)
	ox, oy := minX-(side-bw)/2, minY-(side-bh)/2
	sample := func(n int, cell func(i, j int, r, g, b float64)) {
		for j := 0; j < n; j++ {
			for i := 0; i < n; i++ {
				x0, x1 := ox+i*side/n, ox+(i+1)*side/n
				y0, y1 := oy+j*side/n, oy+(j+1)*side/n
				var sr, sg, sb, cnt float64
				for y := y0; y < max(y1, y0+1); y++ {
					for x := x0; x < max(x1, x0+1); x++ {
						r, g, bb := 255.0, 255.0, 255.0 // outside the picture: white
						if x >= 0 && y >= 0 && x < w && y < h {
							k := 3 * (y*w + x)
							r, g, bb = float64(px[k]), float64(px[k+1]), float64(px[k+2])
						}
						sr, sg, sb, cnt = sr+r, sg+g, sb+bb, cnt+1
					}
				}
				cell(i, j, sr/cnt, sg/cnt, sb/cnt)
			}
		}
	}
	sample(Grid, func(i, j int, r, g, b float64) {
		y, cb, cr := color.RGBToYCbCr(uint8(r+0.5), uint8(g+0.5), uint8(b+0.5))
		k := 3 * (j*Grid + i)
		v[k], v[k+1], v[k+2] = y, cb, cr
	})
	var luma [ShapeGrid * ShapeGrid]float64
	mean := 0.0
	sample(ShapeGrid, func(i, j int, r, g, b float64) {
		l := 0.299*r + 0.587*g + 0.114*b
		luma[j*ShapeGrid+i] = l
		mean += l
	})
	mean /= ShapeGrid * ShapeGrid
	for k, l := range luma {
		v[Grid*Grid*3+k] = uint8(max(0, min(255, l-mean+128)))
	}
	return v
}

// Distance is the squared distance of two vectors, the shape part weighted
// by shapeWeight (percent): colour decides, shape separates look-alikes.
func Distance(a, b *Vector) int {
	colour, shape := 0, 0
	for k := 0; k < Grid*Grid*3; k++ {
		d := int(a[k]) - int(b[k])
		colour += d * d
	}
	for k := Grid * Grid * 3; k < Dims; k++ {
		d := int(a[k]) - int(b[k])
		shape += d * d
	}
	return colour + shape*shapeWeight/100
}

// shapeWeight is the shape layout's weight against the colour layout.
var shapeWeight = 100
