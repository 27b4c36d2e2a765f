package imageintake_test

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/service/imageintake"
	"github.com/emojisearch/emojisearch/service/imageintake/imagebombs"
)

// Every bomb of the corpus is refused with its code (issue 31), whatever
// the sender declared.
func TestBombCorpusRefused(t *testing.T) {
	for _, b := range imagebombs.Corpus() {
		t.Run(b.Name, func(t *testing.T) {
			require.LessOrEqual(t, len(b.Bytes), imageintake.MaxBytes, "a bomb under the size limit")
			_, err := imageintake.Check(b.Bytes, "image/png")
			var ie *imageintake.Error
			require.ErrorAs(t, err, &ie)
			assert.Equal(t, b.Code, ie.Code, ie.Reason)
			assert.Equal(t, 400, ie.Status)
		})
	}
}

// Ordinary emoji pass unchanged, as does a lossy WebP of a real encoder.
func TestOrdinaryImagesAccepted(t *testing.T) {
	files := imagebombs.Ordinary()
	lossy, err := os.ReadFile("../../localai/visionmodel/testdata/red-circle.webp")
	require.NoError(t, err)
	files["webp-lossy"] = lossy
	for name, b := range files {
		t.Run(name, func(t *testing.T) {
			img, err := imageintake.Check(b, "")
			require.NoError(t, err)
			assert.Equal(t, len(b), img.Bytes)
		})
	}
}

func BenchmarkRasterCheck(b *testing.B) {
	for name, f := range imagebombs.Ordinary() {
		b.Run(name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := imageintake.Check(f, ""); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
