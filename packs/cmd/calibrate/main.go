// Command calibrate derives the fusion calibration of a local embedding
// model (spec 3 semanticConfidence: the cosine range over which the model's
// top match goes from rarely to usually right) from a self-supervised probe
// over the packs' own data, never from the evaluation sets:
//
//   - queries: every name and keyword phrase of the ten non-English locales'
//     core packs (CLDR and emojibase text the English vector file is not
//     built from), embedded by the model;
//   - answers: the shared English vector file only (a locale's own file
//     holds the very phrase, which would make the probe trivial);
//   - right: the top emoji is one whose phrases in that locale contain the
//     query phrase (after normalisation).
//
// Probes are sorted by top cosine and cut into 50 bins of equal count; the
// share right per bin is made monotone (pool adjacent violators). Floor is
// the median cosine of the first bin whose share reaches RarelyRight,
// Ceiling that of the first bin reaching UsuallyRight.
//
//	go run ./packs/cmd/calibrate        # prints the bins, then floor and ceiling
package main

import (
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/emojisearch/emojisearch/engine/embed"
	"github.com/emojisearch/emojisearch/engine/packfmt"
	"github.com/emojisearch/emojisearch/engine/vectors"
)

// Shares of right top answers that define the calibration's ends.
const (
	RarelyRight  = 0.5
	UsuallyRight = 0.9
	Bins         = 50
)

func main() {
	dir := flag.String("packs", filepath.Join("packs/dist", packfmt.DefaultVersion), "folder of the pack version")
	model := flag.String("model", "packs/models/glove-cldr.100.embm", "local model file")
	flag.Parse()
	r, err := Run(*dir, *model)
	if err != nil {
		fmt.Fprintln(os.Stderr, "calibrate:", err)
		os.Exit(1)
	}
	fmt.Printf("%d probes (%s), top-1 right %.3f\n", r.N, strings.Join(r.Locales, " "), r.Right)
	fmt.Println("bin  cosine min / median   right (monotone)")
	for i, b := range r.Bins {
		fmt.Printf("%3d  %.3f / %.3f   %.3f (%.3f)\n", i, b.Min, b.Median, b.Raw, b.Share)
	}
	fmt.Printf("calibration %s: Floor %.2f, Ceiling %.2f\n", r.Model, r.Floor, r.Ceiling)
}

// Bin is one equal-count slice of the probes, by top cosine.
type Bin struct {
	Min, Median float64
	Raw, Share  float64 // share right, as measured and made monotone
}

// Result of a probe run.
type Result struct {
	Model          string
	Locales        []string
	N              int
	Right          float64
	Bins           []Bin
	Floor, Ceiling float64 // rounded to 0.01
}

type probe struct {
	cos       float64
	right, ok bool
}

// Run probes the model with the packs of dir.
func Run(dir, modelPath string) (Result, error) {
	mb, err := os.ReadFile(modelPath)
	if err != nil {
		return Result{}, err
	}
	m, err := embed.Load(mb)
	if err != nil {
		return Result{}, err
	}
	vb, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("vectors.%s.%d.bin", m.Key(), m.Dims())))
	if err != nil {
		return Result{}, err
	}
	en, err := vectors.DecodeVectors(vb)
	if err != nil {
		return Result{}, err
	}
	res := Result{Model: m.Name()}
	var probes []probe
	for _, loc := range packfmt.Locales {
		if loc == "en" {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, "pack."+loc+".json"))
		if err != nil {
			return Result{}, err
		}
		p, err := packfmt.Decode(b)
		if err != nil {
			return Result{}, fmt.Errorf("pack.%s.json: %w", loc, err)
		}
		res.Locales = append(res.Locales, loc)
		owners := map[string]map[string]bool{} // normalised phrase -> ids having it
		var queries []string
		for _, r := range p.Rows {
			for _, f := range []int{packfmt.FieldName, packfmt.FieldKeyword, packfmt.FieldAlias} {
				for _, ph := range r.Phrases[f] {
					k := embed.Normalize(ph)
					if k == "" {
						continue
					}
					if owners[k] == nil {
						owners[k] = map[string]bool{}
						if f != packfmt.FieldAlias {
							queries = append(queries, k)
						}
					}
					owners[k][r.ID] = true
				}
			}
		}
		// Searched in parallel, gathered in query order: the same result on any machine.
		got := make([]probe, len(queries))
		var wg sync.WaitGroup
		workers := runtime.GOMAXPROCS(0)
		for w := range workers {
			wg.Go(func() {
				for i := w; i < len(queries); i += workers {
					if top := vectors.SearchVectors(en, m.Embed(queries[i]), 1); len(top) > 0 {
						got[i] = probe{float64(top[0].Score), owners[queries[i]][top[0].ID], true}
					}
				}
			})
		}
		wg.Wait()
		for _, p := range got {
			if p.ok {
				probes = append(probes, p)
			}
		}
	}
	if len(probes) < Bins {
		return Result{}, fmt.Errorf("only %d probes", len(probes))
	}
	slices.SortStableFunc(probes, func(a, b probe) int {
		switch {
		case a.cos < b.cos:
			return -1
		case a.cos > b.cos:
			return 1
		}
		return 0
	})
	res.N = len(probes)
	right := 0
	for i := range Bins {
		lo, hi := i*len(probes)/Bins, (i+1)*len(probes)/Bins
		n := 0
		for _, p := range probes[lo:hi] {
			if p.right {
				n++
			}
		}
		right += n
		share := float64(n) / float64(hi-lo)
		res.Bins = append(res.Bins, Bin{Min: probes[lo].cos, Median: probes[(lo+hi)/2].cos, Raw: share, Share: share})
	}
	res.Right = float64(right) / float64(len(probes))
	monotone(res.Bins)
	res.Floor, res.Ceiling = math.NaN(), math.NaN()
	for _, b := range res.Bins {
		if math.IsNaN(res.Floor) && b.Share >= RarelyRight {
			res.Floor = round2(b.Median)
		}
		if math.IsNaN(res.Ceiling) && b.Share >= UsuallyRight {
			res.Ceiling = round2(b.Median)
		}
	}
	if math.IsNaN(res.Floor) || math.IsNaN(res.Ceiling) || res.Ceiling <= res.Floor {
		return res, fmt.Errorf("no calibration: the share right never spans %.2f..%.2f", RarelyRight, UsuallyRight)
	}
	return res, nil
}

// monotone makes the bins' shares non-decreasing by pooling adjacent
// violators (equal-count bins: plain means).
func monotone(bins []Bin) {
	type block struct {
		sum   float64
		count int
	}
	var st []block
	for _, b := range bins {
		st = append(st, block{b.Share, 1})
		for len(st) > 1 && st[len(st)-2].sum/float64(st[len(st)-2].count) > st[len(st)-1].sum/float64(st[len(st)-1].count) {
			top := st[len(st)-1]
			st = st[:len(st)-1]
			st[len(st)-1].sum += top.sum
			st[len(st)-1].count += top.count
		}
	}
	i := 0
	for _, b := range st {
		for range b.count {
			bins[i].Share = b.sum / float64(b.count)
			i++
		}
	}
}

func round2(x float64) float64 { return math.Round(x*100) / 100 }
