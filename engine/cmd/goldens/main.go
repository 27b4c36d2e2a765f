// Command goldens writes the golden cases the JavaScript client library
// (client/) is tested against: the Go engine's answers on the committed
// packs, so that the library and the engine give one ranking (spec 3).
// Queries are made from the packs themselves (labels, their typing
// prefixes, typos, pairs, unspaced Chinese runs) plus a fixed list of
// shapes (emoji, emoticons, clock times, compounds); nothing comes from the
// evaluation sets.
//
//	go run ./engine/cmd/goldens            # writes client/test/goldens.json
//
// The client's tests and engine-creation benchmark read the English core
// pack's binary index from the pack version (index.en.core.bin, written by
// the pack build: packs/cmd/buildpacks).
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/emojisearch/emojisearch/engine"
	"github.com/emojisearch/emojisearch/engine/culture"
	"github.com/emojisearch/emojisearch/engine/fusion"
	"github.com/emojisearch/emojisearch/engine/packfmt"
	"github.com/emojisearch/emojisearch/engine/vectors"
)

// Case is one search: query, locale, prefix flag and the top ids.
type Case struct {
	Q      string  `json:"q"`
	L      string  `json:"l"`
	P      bool    `json:"p"`
	IDs    string  `json:"ids"`
	Top    float64 `json:"top"`
	Fields string  `json:"fields"`
}

// CultureCase is an alias search with the culture layer of its locale.
type CultureCase struct {
	Q      string `json:"q"`
	L      string `json:"l"`
	Day    string `json:"day"`
	Region string `json:"region"`
	IDs    string `json:"ids"`
}

// NowCase is RelevantNow on one day.
type NowCase struct {
	L      string `json:"l"`
	Day    string `json:"day"`
	Region string `json:"region"`
	IDs    string `json:"ids"`
}

// VectorCase is a meaning search (the sum of rows A and B of the English
// file and the locale's file) and its fusion with an alias search.
type VectorCase struct {
	L      string    `json:"l"`
	A      int       `json:"a"`
	B      int       `json:"b"`
	IDs    string    `json:"ids"`
	Scores []float32 `json:"scores"`
	Q      string    `json:"q"`
	Fused  string    `json:"fused"`
	RRF    string    `json:"rrf"`
}

// DeviceCase is the top 3 of the service's dictionary tier (every JSON
// pack) for an editorial phrase or a smoke query of a locale: what the JS
// client's default engine (device indexes) is held to in at least 97 % of
// cases (client/test/parity.test.js).
type DeviceCase struct {
	Q   string `json:"q"`
	L   string `json:"l"`
	IDs string `json:"ids"`
}

type goldens struct {
	PackVersion string        `json:"packVersion"`
	Search      []Case        `json:"search"`
	Device      []DeviceCase  `json:"device"`
	Culture     []CultureCase `json:"culture"`
	Now         []NowCase     `json:"now"`
	Vectors     []VectorCase  `json:"vectors"`
}

func main() {
	dir := flag.String("packs", filepath.Join("packs", "dist", packfmt.DefaultVersion), "pack version folder")
	out := flag.String("o", filepath.Join("client", "test", "goldens.json"), "output file")
	per := flag.Int("labels", 30, "labels sampled per locale")
	flag.Parse()
	if err := run(*dir, *out, *per); err != nil {
		log.Fatal(err)
	}
}

func run(dir, out string, per int) error {
	var files [][]byte
	byLocale := map[string]*packfmt.Pack{}
	for _, loc := range packfmt.Locales {
		for _, name := range packfmt.PackFiles(os.DirFS(dir), loc) {
			b, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				return err
			}
			files = append(files, b)
			if name == "pack."+loc+".json" {
				p, err := packfmt.Decode(b)
				if err != nil {
					return err
				}
				byLocale[loc] = p
			}
		}
	}
	eng, err := engine.Load(engine.NewConfig(), files...)
	if err != nil {
		return err
	}
	g := goldens{PackVersion: eng.PackVersion()}
	search := func(q, loc string, prefix bool) engine.Output {
		return eng.Search(q, engine.Options{Limit: 10, Locale: loc, Prefix: prefix})
	}
	add := func(q, loc string, prefix bool) {
		o := search(q, loc, prefix)
		c := Case{Q: q, L: loc, P: prefix, IDs: ids(o.Results), Top: o.Confidence}
		var fs []string
		for _, r := range o.Results {
			fs = append(fs, r.Field[:1])
		}
		c.Fields = strings.Join(fs, "")
		g.Search = append(g.Search, c)
	}
	for _, loc := range packfmt.Locales {
		rows := byLocale[loc].Rows
		step := max(len(rows)/per, 1)
		var picked []string
		for i := step / 2; i < len(rows); i += step {
			if l := rows[i].Label; l != "" && rows[i].Phrases[packfmt.FieldName] != nil {
				picked = append(picked, l)
			}
		}
		for i, l := range picked {
			add(l, loc, true)
			rs := []rune(l)
			for _, n := range []int{1, 2, 3, 5} {
				if n < len(rs) && (n > 1 || i%4 == 0) {
					add(string(rs[:n]), loc, true)
				}
			}
			if len(rs) >= 5 {
				sw := append([]rune{}, rs...)
				sw[1], sw[2] = sw[2], sw[1]
				add(string(sw), loc, i%2 == 0)
				add(string(rs[:len(rs)/2])+string(rs[len(rs)/2+1:]), loc, false)
			}
			if i+1 < len(picked) && i%3 == 0 {
				sep := " "
				if loc == "zh" {
					sep = ""
				}
				add(l+sep+picked[i+1], loc, true)
				add(firstWord(l)+sep+firstWord(picked[len(picked)-1-i]), loc, i%2 == 1)
			}
		}
		if loc != "en" {
			for _, l := range picked[:min(6, len(picked))] {
				add(l, "", true)
			}
		}
	}
	for _, q := range fixedQueries {
		for _, loc := range []string{"en", "", "fr", "zh", "tr"} {
			add(q, loc, true)
		}
		add(q, "en", false)
	}
	for _, q := range localQueries {
		add(q[1], q[0], true)
		add(q[1], q[0], false)
	}
	// Random strings over a pool of scripts, emoji, joiners, punctuation
	// and spaces (fixed seed): the shapes no sampled label has.
	pool := []rune("abcdeéñ xyz:)(<3_-'’1234567890猫咪红心我爱你кошкаقلبदिल😂👍🏽❤️\u200d\ufe0f \t.,!?")
	rng := rand.New(rand.NewPCG(14, 14))
	for range 240 {
		n := 1 + rng.IntN(24)
		b := make([]rune, n)
		for i := range b {
			b[i] = pool[rng.IntN(len(pool))]
		}
		add(string(b), packfmt.Locales[rng.IntN(len(packfmt.Locales))], rng.IntN(2) == 0)
	}
	if err := deviceCases(&g, dir, eng); err != nil {
		return err
	}
	if err := cultureCases(&g, dir, eng); err != nil {
		return err
	}
	if err := vectorCases(&g, dir, eng); err != nil {
		return err
	}
	b, err := json.Marshal(g)
	if err != nil {
		return err
	}
	// One case per line, so a change reads as a small diff.
	s := strings.NewReplacer(`},{"q"`, "},\n{\"q\"", `},{"l"`, "},\n{\"l\"").Replace(string(b))
	if err := os.WriteFile(out, []byte(s+"\n"), 0o644); err != nil {
		return err
	}
	fmt.Printf("goldens: %d search, %d device, %d culture, %d now, %d vector cases, %d bytes -> %s\n",
		len(g.Search), len(g.Device), len(g.Culture), len(g.Now), len(g.Vectors), len(s)+1, out)
	return nil
}

func firstWord(s string) string {
	if i := strings.IndexByte(s, ' '); i > 0 {
		return s[:i]
	}
	if utf8.RuneCountInString(s) > 2 && s[0] >= 0x80 {
		return string([]rune(s)[:2])
	}
	return s
}

func ids(rs []engine.Result) string {
	var out []string
	for _, r := range rs {
		out = append(out, r.ID)
	}
	return strings.Join(out, " ")
}

func cids(rs []culture.Result) string {
	var out []string
	for _, r := range rs {
		out = append(out, r.ID)
	}
	return strings.Join(out, " ")
}

// fixedQueries are shapes every engine rule has to agree on: emoji in
// text, emoticons, shortcodes, clock times, compounds, accents, typing.
var fixedQueries = []string{
	"joy", ":joy:", "😂", "I ❤️ pizza", "👍🏽 ok", "🇫🇷", ":)", "<3", ":-D", ";)", "xD", "1130", "22 00", "7 30",
	"inlove", "thumbsup", "sunflower", "heartbroken", "Café", "CAFÉ au lait", "naïve", "don't", "happy birthday",
	"woman technologist", "cook", "police officer", "red heart", "heart", "hea", "h", "th", "thu", "thumbs u",
	"party", "cat", "cats", "running", "laughing", "smiling face with", "face", "fire", "100", "ok hand",
	"academic", "padlock", "hummus", "unicorn face", "new moon", "flag", "flag fr", "jp", "us", "clock",
	"sad but relieved", "so tired after work", "congrats on the new job", "x", "   ", "!!!", "a b c d e f g h i j",
}

// localQueries are locale-specific shapes: inflections, scripts, unspaced text.
var localQueries = [][2]string{
	{"tr", "kediler"}, {"tr", "kalp"}, {"tr", "teşekkürler"}, {"ru", "кошки"}, {"ru", "сердце"}, {"ru", "ёлка"},
	{"ar", "قَلْب"}, {"ar", "قطة"}, {"zh", "猫"}, {"zh", "我爱你"}, {"zh", "生日快乐"}, {"zh", "龙虾"}, {"zh", "笑哭"},
	{"zh", "ab型血"}, {"zh", "红心"}, {"hi", "दिल"}, {"hi", "धन्यवाद"}, {"bn", "হৃদয়"}, {"es", "corazón"}, {"es", "gatos"},
	{"fr", "cœur"}, {"fr", "chats"}, {"pt", "obrigado"}, {"pt", "coração"}, {"id", "kucing"}, {"id", "terima kasih"},
	{"en", "cafe"}, {"es", "fiesta"}, {"de", "herz"},
}

// deviceCases are every editorial phrase of each locale (the editorial
// columns of its extension pack, once per locale) and every smoke query
// (engine/testdata/smoke), with the top 3 of the engine over every JSON
// pack, searched as the service searches (engine.DefaultOptions).
func deviceCases(g *goldens, dir string, eng *engine.Engine) error {
	for _, loc := range packfmt.Locales {
		b, err := os.ReadFile(filepath.Join(dir, "pack."+loc+".ext.json"))
		if err != nil {
			return err
		}
		ext, err := packfmt.Decode(b)
		if err != nil {
			return err
		}
		seen := map[string]bool{}
		var qs []string
		for _, r := range ext.Rows {
			for _, f := range []int{packfmt.FieldEditorial, packfmt.FieldEditorialMore} {
				for _, q := range r.Phrases[f] {
					if !seen[q] {
						seen[q] = true
						qs = append(qs, q)
					}
				}
			}
		}
		smoke, err := os.ReadFile(filepath.Join("engine", "testdata", "smoke", loc+".smoke.jsonl"))
		if err != nil {
			return err
		}
		for _, line := range strings.Split(strings.TrimSpace(string(smoke)), "\n") {
			var c struct {
				Q string `json:"q"`
			}
			if err := json.Unmarshal([]byte(line), &c); err != nil {
				return fmt.Errorf("smoke %s: %w", loc, err)
			}
			if !seen[c.Q] {
				seen[c.Q] = true
				qs = append(qs, c.Q)
			}
		}
		for _, q := range qs {
			opts := engine.DefaultOptions()
			opts.Locale, opts.Limit = loc, 3
			g.Device = append(g.Device, DeviceCase{Q: q, L: loc, IDs: ids(eng.Search(q, opts).Results)})
		}
	}
	return nil
}

func cultureCases(g *goldens, dir string, eng *engine.Engine) error {
	for _, loc := range packfmt.Locales {
		b, err := os.ReadFile(filepath.Join(dir, "culture", "culture."+loc+".json"))
		if err != nil {
			return err
		}
		c, err := culture.Parse(b)
		if err != nil {
			return err
		}
		for i, e := range c.Entries {
			if i%2 == 1 && len(c.Entries) > 40 {
				continue
			}
			day, region := c.From, ""
			if len(e.Windows) > 0 {
				day = e.Windows[0].From
			}
			if len(e.Regions) > 0 && i%3 != 2 {
				region = e.Regions[0]
			}
			for _, q := range e.Triggers[:min(2, len(e.Triggers))] {
				out := eng.Search(q, engine.Options{Limit: 10, Locale: loc, Prefix: true})
				res := culture.ApplyCulture(c, q, culture.FromAlias(out.Results), culture.Options{Day: day, Region: region, Limit: 10})
				g.Culture = append(g.Culture, CultureCase{Q: q, L: loc, Day: day, Region: region, IDs: cids(res)})
			}
		}
		for k, day := range []string{c.From, culture.AddDays(c.From, 40), culture.AddDays(c.From, 150), culture.AddDays(c.From, 300)} {
			region := []string{"", "US", "IN", "BR"}[k]
			var fs []string
			for _, f := range culture.RelevantNow(c, day, region, 8) {
				fs = append(fs, f.Hexcode)
			}
			g.Now = append(g.Now, NowCase{L: loc, Day: day, Region: region, IDs: strings.Join(fs, " ")})
		}
	}
	return nil
}

func vectorCases(g *goldens, dir string, eng *engine.Engine) error {
	load := func(name string) (*vectors.Index, error) {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return nil, err
		}
		return vectors.DecodeVectors(b)
	}
	en, err := load("vectors.glove-cldr.100.bin")
	if err != nil {
		return err
	}
	for _, loc := range []string{"en", "zh", "fr", "hi"} {
		idx := []*vectors.Index{en}
		if loc != "en" {
			x, err := load("vectors.glove-cldr.100." + loc + ".bin")
			if err != nil {
				return err
			}
			idx = append(idx, x)
		}
		for i := range 12 {
			a, b := (i*397+11)%en.Len(), (i*1013+7)%en.Len()
			ra, rb := en.Row(a), en.Row(b)
			q := make([]float32, len(ra))
			for d := range q {
				q[d] = ra[d] + rb[d]
			}
			ms := vectors.SearchVectorSets(idx, q, 20)
			var vs []string
			var scores []float32
			var hits []fusion.Hit
			for _, m := range ms {
				vs = append(vs, m.ID)
				scores = append(scores, m.Score)
				hits = append(hits, fusion.Hit{ID: m.ID, Cosine: float64(m.Score)})
			}
			ent, _ := eng.Get(en.IDs()[a])
			query := firstWord(ent.Labels["en"])
			if i%3 == 0 {
				query += " " + firstWord(ent.Labels[loc])
			}
			out := eng.Search(query, engine.Options{Limit: 24, Locale: loc, Prefix: true})
			fused := fusion.Fuse(out.Results, out.Confidence, hits, 10, fusion.DefaultSemanticCalibration)
			rrf := fusion.FuseResults(out.Results, hits, fusion.Options{})
			var fs, rs []string
			for _, it := range fused {
				fs = append(fs, it.ID)
			}
			for _, it := range rrf[:min(10, len(rrf))] {
				rs = append(rs, it.ID)
			}
			g.Vectors = append(g.Vectors, VectorCase{L: loc, A: a, B: b, IDs: strings.Join(vs, " "), Scores: scores, Q: query,
				Fused: strings.Join(fs, " "), RRF: strings.Join(rs, " ")})
		}
	}
	return nil
}
