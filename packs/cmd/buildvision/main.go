// Command buildvision builds the index of hostsim's local vision model
// from the Noto emoji artwork of the npm package emoji-datasource-google
// (images Apache-2.0), and evaluates it on artwork of another vendor the
// index does not hold (emoji-datasource-twitter: Twemoji, CC-BY 4.0, used
// for measuring only, never shipped):
//
//	npm pack emoji-datasource-google@16.0.0 && tar -xzf emoji-datasource-google-16.0.0.tgz -C noto
//	go run ./packs/cmd/buildvision -src noto/package -out packs/models/emoji-vision.noto.evis
//	go run ./packs/cmd/buildvision -index packs/models/emoji-vision.noto.evis -eval twemoji/package -vendor twitter
//
// The evaluation renders 500 emoji (every k-th of those both vendors
// draw), scales each to 96 px over white, recompresses it as JPEG (quality
// 80) and, when `cwebp` is installed, as WebP (quality 80), and reports
// top-1 and top-5 of the nearest-emoji search per format.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/image/draw"

	"github.com/emojisearch/emojisearch/engine/imagefeat"
	"github.com/emojisearch/emojisearch/localai/visionmodel"
)

type entry struct {
	Unified string `json:"unified"`
	Image   string `json:"image"`
	Google  bool   `json:"has_img_google"`
	Twitter bool   `json:"has_img_twitter"`
}

func main() {
	src := flag.String("src", "", "emoji-datasource-google package folder (build)")
	out := flag.String("out", "", "index file to write")
	indexPath := flag.String("index", "", "index file to evaluate")
	evalSrc := flag.String("eval", "", "emoji-datasource-<vendor> package folder (evaluate)")
	vendor := flag.String("vendor", "twitter", "vendor folder under img/")
	n := flag.Int("n", 500, "emoji to evaluate")
	flag.Parse()
	var err error
	switch {
	case *src != "" && *out != "":
		err = build(*src, *out)
	case *indexPath != "" && *evalSrc != "":
		err = evaluate(*indexPath, *evalSrc, *vendor, *n)
	default:
		flag.Usage()
		os.Exit(2)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "buildvision:", err)
		os.Exit(1)
	}
}

func entries(dir string) ([]entry, error) {
	b, err := os.ReadFile(filepath.Join(dir, "emoji.json"))
	if err != nil {
		return nil, err
	}
	var es []entry
	return es, json.Unmarshal(b, &es)
}

// emojiOf turns "1F1EA-1F1EC" into the emoji.
func emojiOf(unified string) string {
	var b strings.Builder
	for _, h := range strings.Split(unified, "-") {
		r, err := strconv.ParseUint(h, 16, 32)
		if err != nil {
			return ""
		}
		b.WriteRune(rune(r))
	}
	return b.String()
}

func decodePNG(path string) (image.Image, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return png.Decode(f)
}

func build(dir, out string) error {
	es, err := entries(dir)
	if err != nil {
		return err
	}
	x := &imagefeat.Index{}
	for _, e := range es {
		if !e.Google {
			continue
		}
		img, err := decodePNG(filepath.Join(dir, "img", "google", "64", e.Image))
		if err != nil {
			continue // the package lists a few images it does not ship
		}
		x.Emoji = append(x.Emoji, emojiOf(e.Unified))
		x.Vecs = append(x.Vecs, imagefeat.Of(img))
	}
	var b bytes.Buffer
	if err := x.Write(&b); err != nil {
		return err
	}
	fmt.Printf("%d emoji, %d bytes\n", len(x.Emoji), b.Len())
	return os.WriteFile(out, b.Bytes(), 0o644)
}

func evaluate(indexPath, dir, vendor string, n int) error {
	raw, err := os.ReadFile(indexPath)
	if err != nil {
		return err
	}
	x, err := imagefeat.Read(raw)
	if err != nil {
		return err
	}
	indexed := map[string]bool{}
	for _, e := range x.Emoji {
		indexed[key(e)] = true
	}
	es, err := entries(dir)
	if err != nil {
		return err
	}
	var pool []entry
	for _, e := range es {
		if e.Twitter && indexed[key(emojiOf(e.Unified))] {
			pool = append(pool, e)
		}
	}
	step := max(1, len(pool)/n)
	_, cwebpErr := exec.LookPath("cwebp")
	scores := map[string]*score{"jpeg": {}, "webp": {}}
	tmp, err := os.MkdirTemp("", "buildvision")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	for i := 0; i < len(pool) && scores["jpeg"].n < n; i += step {
		e := pool[i]
		art, err := decodePNG(filepath.Join(dir, "img", vendor, "64", e.Image))
		if err != nil {
			continue
		}
		img := image.NewRGBA(image.Rect(0, 0, 96, 96))
		draw.Draw(img, img.Bounds(), image.NewUniform(color.White), image.Point{}, draw.Src)
		draw.CatmullRom.Scale(img, img.Bounds(), art, art.Bounds(), draw.Over, nil)
		want := key(emojiOf(e.Unified))
		var jb bytes.Buffer
		if err := jpeg.Encode(&jb, img, &jpeg.Options{Quality: 80}); err != nil {
			return err
		}
		q, err := visionmodel.Decode(jb.Bytes())
		if err != nil {
			return err
		}
		rank(x, q, want, scores["jpeg"])
		if cwebpErr == nil {
			pngPath, webpPath := filepath.Join(tmp, "q.png"), filepath.Join(tmp, "q.webp")
			var pb bytes.Buffer
			_ = png.Encode(&pb, img)
			_ = os.WriteFile(pngPath, pb.Bytes(), 0o644)
			if err := exec.Command("cwebp", "-quiet", "-q", "80", pngPath, "-o", webpPath).Run(); err != nil {
				return fmt.Errorf("cwebp: %w", err)
			}
			wb, _ := os.ReadFile(webpPath)
			q, err := visionmodel.Decode(wb)
			if err != nil {
				return err
			}
			rank(x, q, want, scores["webp"])
		}
	}
	for _, f := range []string{"jpeg", "webp"} {
		s := scores[f]
		if s.n == 0 {
			fmt.Printf("%s: not measured (cwebp not installed)\n", f)
			continue
		}
		fmt.Printf("%s: n=%d top-1 %.3f top-5 %.3f\n", f, s.n, float64(s.top1)/float64(s.n), float64(s.top5)/float64(s.n))
	}
	return nil
}

type score struct{ n, top1, top5 int }

func rank(x *imagefeat.Index, q image.Image, want string, s *score) {
	v := imagefeat.Of(q)
	s.n++
	for i, m := range x.Nearest(&v, 5) {
		if key(m.Emoji) == want {
			if i == 0 {
				s.top1++
			}
			s.top5++
			break
		}
	}
}

// key compares emoji without U+FE0F.
func key(e string) string { return strings.ReplaceAll(e, "\uFE0F", "") }
