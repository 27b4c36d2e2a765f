// Command setmap builds the hosted sets mapping (sets.json, packs/FORMAT.md
// "Hosted sets mapping") from the pinned npm packages that
// scripts/install-sets.sh installs: every pack emoji and single-tone
// variant to its file in Twemoji, OpenMoji and Noto, or "" where the set
// does not draw it. With -upstream it also lays out the local upstream: the
// same relative paths the production CDN serves, for hostsim and the e2e
// suite (nothing of it is committed).
//
//	go run ./packs/cmd/setmap -npm packs/.sets/npm/node_modules -out packs/sets/sets.json
//	go run ./packs/cmd/setmap -npm packs/.sets/npm/node_modules -upstream packs/.sets/upstream
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/emojisearch/emojisearch/packs/dist"
	"github.com/emojisearch/emojisearch/service/emojisets"
)

// The pinned sources: package, folder of the files, production path under
// SETS_UPSTREAM (jsDelivr), licence.
var sets = []struct {
	name, pkgDir, path, license string
}{
	{"twemoji", "@discordapp/twemoji/dist/svg", "npm/@discordapp/twemoji@16.0.1/dist/svg/", "https://creativecommons.org/licenses/by/4.0/"},
	{"openmoji", "openmoji/color/svg", "npm/openmoji@17.0.0/color/svg/", "https://creativecommons.org/licenses/by-sa/4.0/"},
	// Noto's npm package (@iconify-json/noto@1.2.9) holds icon bodies, not
	// files: production reads the project's own SVG files at a pinned tag;
	// the local upstream renders the package's bodies to the same names.
	{"noto", "@iconify-json/noto", "gh/googlefonts/noto-emoji@v2.051/svg/", "https://www.apache.org/licenses/LICENSE-2.0"},
}

func main() {
	npm := flag.String("npm", "packs/.sets/npm/node_modules", "node_modules of scripts/install-sets.sh")
	pack := flag.String("pack", filepath.Join("packs/dist", dist.Version, "pack.en.json"), "the English core pack")
	out := flag.String("out", "", "write sets.json here")
	upstream := flag.String("upstream", "", "lay out the local upstream under this folder")
	flag.Parse()
	if err := run(*npm, *pack, *out, *upstream); err != nil {
		fmt.Fprintln(os.Stderr, "setmap:", err)
		os.Exit(1)
	}
}

func run(npm, pack, out, upstream string) error {
	hexcodes, err := packHexcodes(pack, filepath.Join(npm, "emojibase-data/en/data.json"))
	if err != nil {
		return err
	}
	tw, err := dirFiles(filepath.Join(npm, sets[0].pkgDir))
	if err != nil {
		return err
	}
	om, err := dirFiles(filepath.Join(npm, sets[1].pkgDir))
	if err != nil {
		return err
	}
	noto, err := readIconify(filepath.Join(npm, sets[2].pkgDir))
	if err != nil {
		return err
	}
	m := emojisets.Mapping{Format: 1, Sets: map[string]emojisets.Set{}, Emoji: map[string][]string{}}
	for _, s := range sets {
		m.Order = append(m.Order, s.name)
		m.Sets[s.name] = emojisets.Set{Path: s.path, License: s.license}
	}
	missing := make([]int, 3)
	for _, h := range hexcodes {
		key, ok := emojisets.Canonical(h)
		if !ok {
			return fmt.Errorf("pack hexcode %q does not parse", h)
		}
		files := []string{tw[key], om[key], ""}
		if _, ok := noto.chars[key]; ok {
			files[2] = notoStem(key)
		}
		for i, f := range files {
			if f == "" {
				missing[i]++
			}
		}
		m.Emoji[key] = files
	}
	fmt.Fprintf(os.Stderr, "setmap: %d hexcodes; not_in_set twemoji %d, openmoji %d, noto %d\n", len(m.Emoji), missing[0], missing[1], missing[2])
	if out != "" {
		if err := writeMapping(out, m); err != nil {
			return err
		}
	}
	if upstream != "" {
		return layOut(upstream, npm, m, noto)
	}
	return nil
}

// packHexcodes lists the pack's emoji (column id of every row) and, for
// those with skins, emojibase's single-tone variants.
func packHexcodes(packPath, emojibasePath string) ([]string, error) {
	var p struct {
		RowIndex map[string]int `json:"rowIndex"`
		Rows     [][]any        `json:"rows"`
	}
	b, err := os.ReadFile(packPath)
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(b, &p); err != nil {
		return nil, err
	}
	var eb []struct {
		Hexcode string `json:"hexcode"`
		Skins   []struct {
			Hexcode string `json:"hexcode"`
			Tone    any    `json:"tone"`
		} `json:"skins"`
	}
	if b, err = os.ReadFile(emojibasePath); err != nil {
		return nil, err
	}
	if err := json.Unmarshal(b, &eb); err != nil {
		return nil, err
	}
	skins := map[string][]string{}
	for _, e := range eb {
		for _, s := range e.Skins {
			if _, single := s.Tone.(float64); single {
				skins[e.Hexcode] = append(skins[e.Hexcode], s.Hexcode)
			}
		}
	}
	id, sk := p.RowIndex["id"], p.RowIndex["skins"]
	var out []string
	for _, row := range p.Rows {
		h, _ := row[id].(string)
		if h == "" {
			return nil, errors.New("a pack row without id")
		}
		out = append(out, h)
		if n, _ := row[sk].(float64); n == 1 {
			if len(skins[h]) == 0 {
				return nil, fmt.Errorf("%s has skins in the pack but none in emojibase", h)
			}
			out = append(out, skins[h]...)
		}
	}
	return out, nil
}

// dirFiles indexes a folder of <hexcode>.svg files by canonical hexcode;
// where two spellings exist the first in name order wins.
func dirFiles(dir string) (map[string]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, e := range entries {
		stem, ok := strings.CutSuffix(e.Name(), ".svg")
		if !ok {
			continue
		}
		if key, ok := emojisets.Canonical(stem); ok {
			if _, dup := out[key]; !dup {
				out[key] = stem
			}
		}
	}
	return out, nil
}

type iconify struct {
	chars  map[string]string // canonical hexcode → icon name
	icons  map[string]struct{ Body string }
	alias  map[string]struct{ Parent string }
	width  int
	height int
}

func readIconify(dir string) (*iconify, error) {
	var raw map[string]string
	b, err := os.ReadFile(filepath.Join(dir, "chars.json"))
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, err
	}
	var set struct {
		Icons   map[string]struct{ Body string }   `json:"icons"`
		Aliases map[string]struct{ Parent string } `json:"aliases"`
		Width   int                                `json:"width"`
		Height  int                                `json:"height"`
	}
	if b, err = os.ReadFile(filepath.Join(dir, "icons.json")); err != nil {
		return nil, err
	}
	if err := json.Unmarshal(b, &set); err != nil {
		return nil, err
	}
	ic := &iconify{chars: map[string]string{}, icons: set.Icons, alias: set.Aliases, width: set.Width, height: set.Height}
	for hex, name := range raw {
		if key, ok := emojisets.Canonical(hex); ok {
			ic.chars[key] = name
		}
	}
	return ic, nil
}

// body resolves aliases to an icon body.
func (ic *iconify) body(name string) (string, bool) {
	for range 8 {
		if i, ok := ic.icons[name]; ok {
			return i.Body, true
		}
		a, ok := ic.alias[name]
		if !ok {
			return "", false
		}
		name = a.Parent
	}
	return "", false
}

// notoStem is Noto's file name: emoji_u + code points in lower case joined
// by "_", without FE0F.
func notoStem(key string) string {
	return "emoji_u" + strings.ReplaceAll(strings.ToLower(key), "-", "_")
}

func writeMapping(path string, m emojisets.Mapping) error {
	keys := make([]string, 0, len(m.Emoji))
	for k := range m.Emoji {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	// One emoji per line keeps the committed file readable and diffable.
	var b strings.Builder
	head, err := json.Marshal(struct {
		Format int                      `json:"format"`
		Order  []string                 `json:"order"`
		Sets   map[string]emojisets.Set `json:"sets"`
	}{m.Format, m.Order, m.Sets})
	if err != nil {
		return err
	}
	b.Write(head[:len(head)-1])
	b.WriteString(`,"emoji":{`)
	for i, k := range keys {
		v, _ := json.Marshal(m.Emoji[k])
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "\n%q:%s", k, v)
	}
	b.WriteString("\n}}\n")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

// layOut makes the local upstream: the package folders linked at their
// production paths, and Noto's bodies rendered to files.
func layOut(root, npm string, m emojisets.Mapping, noto *iconify) error {
	for _, s := range sets[:2] {
		link := filepath.Join(root, strings.TrimSuffix(s.path, "/"))
		target, err := filepath.Abs(filepath.Join(npm, s.pkgDir))
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
			return err
		}
		_ = os.Remove(link)
		if err := os.Symlink(target, link); err != nil {
			return err
		}
	}
	dir := filepath.Join(root, sets[2].path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	n := 0
	for key, files := range m.Emoji {
		if files[2] == "" {
			continue
		}
		body, ok := noto.body(noto.chars[key])
		if !ok {
			return fmt.Errorf("noto: no body for %s", key)
		}
		svg := fmt.Sprintf(`<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d">%s</svg>`,
			noto.width, noto.height, noto.width, noto.height, body)
		if err := os.WriteFile(filepath.Join(dir, files[2]+".svg"), []byte(svg), 0o644); err != nil {
			return err
		}
		n++
	}
	fmt.Fprintf(os.Stderr, "setmap: local upstream in %s (%d Noto files rendered)\n", root, n)
	return nil
}
