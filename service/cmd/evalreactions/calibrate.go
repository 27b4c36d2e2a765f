package main

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/emojisearch/emojisearch/engine/reactions"
	svc "github.com/emojisearch/emojisearch/service/reactions"
)

// calibration is a training set's rows with the evidence the route
// gathers for each, asked once and ranked many times. Only rows whose gold
// holds a reaction (the vocabulary of engine/reactions) are kept: the
// route offers reactions, not topics, and a line an author ended with 📷
// or 🇺🇸 would teach the blend to trust topical keywords.
type calibration struct {
	rows   []row
	ev     []reactions.Evidence
	labels map[string]bool // every gold emoji of the set
	// unjudged are the default faces no row has as gold; faceChance is
	// the mean share of rows whose gold is one of the other faces.
	unjudged   map[string]bool
	faceChance float64
}

func loadCalibration(s *svc.Service, path string, maxRows int, locale string) (*calibration, error) {
	rows, err := readRows(path, maxRows)
	if err != nil {
		return nil, err
	}
	c := &calibration{labels: map[string]bool{}}
	for _, r := range rows {
		if !slices.ContainsFunc(r.Gold, reactions.IsReaction) {
			continue // a topical gold emoji (📷, 🇺🇸) says nothing of reactions (spec 1)
		}
		c.rows = append(c.rows, r)
		in, err := s.Evidence(context.Background(), r.Text, locale)
		if err != nil {
			return nil, err
		}
		c.ev = append(c.ev, reactions.Gather(in))
		for g := range goldOf(r) {
			c.labels[g] = true
		}
	}
	return c, nil
}

// reliability prints how often each kind of signal names a gold emoji, by
// strength, counting only signals for emoji the set can have as gold (a
// set of 20 labels says nothing about the others), beside the same for
// each face of the default row. The fitted weight is the kind's gold
// share per unit of strength: the chance at full strength.
func (c *calibration) reliability() {
	type cell struct{ n, gold, strength float64 }
	var by [reactions.NumKinds][5]cell
	var fit [reactions.NumKinds]cell
	for i, ev := range c.ev {
		gold := goldOf(c.rows[i])
		for _, sg := range ev.Signals() {
			k := reactions.Key(sg.Emoji)
			if !c.labels[k] {
				continue
			}
			b := min(int(sg.Strength*5), 4)
			hit := 0.0
			if gold[k] {
				hit = 1
			}
			for _, x := range []*cell{&by[sg.Kind][b], &fit[sg.Kind]} {
				x.n++
				x.gold += hit
				x.strength += sg.Strength
			}
		}
	}
	fmt.Printf("%-8s %8s %8s %8s %8s %8s %8s %7s\n", "signal", "0-.2", ".2-.4", ".4-.6", ".6-.8", ".8-1", "n", "weight")
	for k := range reactions.NumKinds {
		fmt.Printf("%-8s", k)
		for _, x := range by[k] {
			if x.n == 0 {
				fmt.Printf(" %8s", "-")
				continue
			}
			fmt.Printf(" %8.3f", x.gold/x.n)
		}
		w := 0.0
		if fit[k].strength > 0 {
			w = fit[k].gold / fit[k].strength
		}
		fmt.Printf(" %8.0f %7.3f\n", fit[k].n, w)
	}
	fmt.Printf("default row, share of lines whose gold is each face:")
	for _, e := range reactions.DefaultRow {
		n := 0.0
		for _, r := range c.rows {
			if goldOf(r)[reactions.Key(e)] {
				n++
			}
		}
		fmt.Printf(" %s %.3f", e, n/float64(len(c.rows)))
	}
	fmt.Println()
}

// hit5 is a blend's hit@5 over the set, with the default faces the set
// can never have as gold (TweetEval has no 😢 or 😡) priced fairly: each
// such face in the first five counts as a hit with the mean chance of the
// default faces the set can judge. Without it, dropping those faces would
// look free, and the blend would learn to drop them on any evidence,
// which loses every sad or angry message of a general chat (the default
// row's premise: a message with no signal is as likely sad as funny).
func (c *calibration) hit5(b reactions.Blend) float64 {
	sum := 0.0
	for i, ev := range c.ev {
		got := b.Rank(ev, 5)
		es := make([]string, len(got))
		for j, g := range got {
			es[j] = g.Emoji
		}
		sum += c.hit(i, es)
	}
	return sum / float64(len(c.ev))
}

// hit is row i's priced hit of a first five.
func (c *calibration) hit(i int, first5 []string) float64 {
	gold := goldOf(c.rows[i])
	miss := 1.0
	for _, e := range first5 {
		k := reactions.Key(e)
		switch {
		case gold[k]:
			miss = 0
		case c.unjudged[k]:
			miss *= 1 - c.faceChance
		}
	}
	return 1 - miss
}

// defaultHit5 is the default row's priced hit@5.
func (c *calibration) defaultHit5() float64 {
	sum := 0.0
	for i := range c.rows {
		sum += c.hit(i, reactions.DefaultRow[:reactions.RowFaces])
	}
	return sum / float64(len(c.rows))
}

// priceFaces finds the default faces the set cannot judge and the mean
// chance of those it can.
func (c *calibration) priceFaces() {
	c.unjudged = map[string]bool{}
	n, judged := 0.0, 0
	for _, e := range reactions.DefaultRow[:reactions.RowFaces] {
		k := reactions.Key(e)
		if !c.labels[k] {
			c.unjudged[k] = true
			continue
		}
		judged++
		for _, r := range c.rows {
			if goldOf(r)[k] {
				n++
			}
		}
	}
	if judged > 0 {
		c.faceChance = n / float64(judged) / float64(len(c.rows))
	}
}

func calibrateOn(s *svc.Service, path string, maxRows int) error {
	c, err := loadCalibration(s, path, maxRows, localeOf(path))
	if err != nil {
		return err
	}
	c.priceFaces()
	fmt.Printf("%s: %d rows, %d gold emoji; default faces it cannot judge %v, priced at %.3f\n", path, len(c.rows),
		len(c.labels), slices.Sorted(maps.Keys(c.unjudged)), c.faceChance)
	c.reliability()
	fmt.Printf("hit@5 (faces priced) calibrated blend %.4f, default row %.4f\n", c.hit5(reactions.Calibrated),
		c.defaultHit5())
	// Start from the default row (with the acts and the author's emoji,
	// which this set cannot judge): each signal has to earn its weight.
	start := reactions.Calibrated
	for _, k := range []reactions.Kind{reactions.Cue, reactions.Lexicon, reactions.Vocab, reactions.Alias, reactions.Nearest} {
		start.Signal[k] = 0
	}
	fmt.Printf("hit@5 (faces priced) from the default row with the acts %.4f\n", c.hit5(start))
	c.tune(start)
	return nil
}

// knobs are the handful of blend weights and thresholds the training set
// may tune, each with the values tried.
var knobs = []struct {
	name   string
	field  func(*reactions.Blend) *float64
	values []float64
}{
	{"cue", func(b *reactions.Blend) *float64 { return &b.Signal[reactions.Cue] }, []float64{0, 0.05, 0.1, 0.2, 0.25, 0.3, 0.35, 0.5, 0.7, 1}},
	{"lexicon", func(b *reactions.Blend) *float64 { return &b.Signal[reactions.Lexicon] }, []float64{0, 0.1, 0.2, 0.35, 0.5, 0.7, 1}},
	{"vocab", func(b *reactions.Blend) *float64 { return &b.Signal[reactions.Vocab] }, []float64{0, 0.1, 0.25, 0.45, 0.7, 1}},
	{"alias", func(b *reactions.Blend) *float64 { return &b.Signal[reactions.Alias] }, []float64{0, 0.1, 0.25, 0.5, 0.75, 1}},
	{"nearest", func(b *reactions.Blend) *float64 { return &b.Signal[reactions.Nearest] }, []float64{0, 0.1, 0.25, 0.4, 0.7, 1}},
	{"prior", func(b *reactions.Blend) *float64 { return &b.Prior }, []float64{0.15, 0.2, 0.3, 0.4, 0.5}},
	{"prior-decay", func(b *reactions.Blend) *float64 { return &b.PriorDecay }, []float64{0.7, 0.8, 0.85, 0.9, 0.95}},
	{"floor", func(b *reactions.Blend) *float64 { return &b.Floor }, []float64{0, 0.05, 0.1, 0.15, 0.2, 0.3}},
	{"cheerful", func(b *reactions.Blend) *float64 { return &b.Cheerful }, []float64{1e-9, 0.5, 1, 1.5, 2, 99}},
	{"row-top", func(b *reactions.Blend) *float64 { return &b.RowTop }, []float64{1, 2, 3, 5}},
	{"gloomy", func(b *reactions.Blend) *float64 { return &b.Gloomy }, []float64{1e-9, 0.5, 1, 1.5, 2, 99}},
}

// minGain is the least gain on the training objective a knob's move must
// bring: 0.001 is 32 of TweetEval train's 31,887 reaction rows. A signal
// whose weight earns less than that (the embedding's first tune gained 3
// rows) is noise, and not worth moving anyone's row.
const minGain = 0.001

// tune walks the knobs one at a time (coordinate ascent on hit@5, a move
// kept only when it gains minGain) for a few rounds.
func (c *calibration) tune(b reactions.Blend) reactions.Blend {
	best := c.hit5(b)
	for round := range 2 {
		moved := false
		for _, k := range knobs {
			for _, v := range k.values {
				t := b
				*k.field(&t) = v
				if h := c.hit5(t); h >= best+minGain {
					best, b, moved = h, t, true
				}
			}
			fmt.Printf("round %d %-11s %.3g hit@5 %.4f\n", round+1, k.name, *k.field(&b), best)
		}
		if !moved {
			break
		}
	}
	fmt.Printf("tuned blend: %+v\n", b)
	return b
}
