package imageintake_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/emojisearch/emojisearch/service/imageintake"
)

// BenchmarkLegitCorpus checks every legitimate corpus file once per
// iteration (the cost of the intake on real exports).
func BenchmarkLegitCorpus(b *testing.B) {
	files, _ := filepath.Glob(filepath.Join("testdata", "svg", "legit", "*.svg"))
	var data [][]byte
	for _, f := range files {
		d, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		data = append(data, d)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, d := range data {
			if _, err := imageintake.Check(d, ""); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkLargeSVG checks an SVG just under the 256 KB limit: many small
// paths, the worst case a legitimate file reaches.
func BenchmarkLargeSVG(b *testing.B) {
	var sb strings.Builder
	sb.WriteString(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1000 1000">`)
	for i := 0; sb.Len() < imageintake.MaxBytes-200; i++ {
		sb.WriteString(`<path fill="#` + strconv.Itoa(100000+i%899999) + `" d="M` + strconv.Itoa(i%997) + ` 10l5 5h-3z"/>`)
	}
	sb.WriteString(`</svg>`)
	svg := []byte(sb.String())
	b.SetBytes(int64(len(svg)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := imageintake.Check(svg, ""); err != nil {
			b.Fatal(err)
		}
	}
}
