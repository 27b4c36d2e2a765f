// Package packs builds the emoji packs (packs/FORMAT.md) from the pinned npm
// inputs. The build is deterministic: the same inputs give the same bytes.
package packs

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/emojisearch/emojisearch/engine/packfmt"
)

// File is one built file.
type File struct {
	Name string
	Data []byte
	Rows int
}

// Indexer writes the binary indexes from the decoded packs (engine.WriteIndex
// and engine.WritePartIndex; function values so packs/ does not import
// engine/).
type Indexer struct {
	// Locale writes index.<locale>.bin: the phrases of the locale's packs
	// among packs, over the entries of the English core pack.
	Locale func(w io.Writer, locale string, packs ...*packfmt.Pack) error
	// Part writes index.<locale>.<part>.bin: the phrases of extension
	// packs of one locale, over the entries of the English core pack en.
	Part func(w io.Writer, part string, en *packfmt.Pack, phrases ...*packfmt.Pack) error
	// Terms are the token rules a device index needs (device.go); without
	// them no device index is written.
	Terms *TermRules
}

// Build turns inputs into the files of one pack version: pack.<locale>.json
// and pack.<locale>.ext.json for every locale, then, with an indexer,
// index.<locale>.bin for every locale (index.en.bin without the related
// words), index.en.core.bin (the English core pack alone, for the JS client)
// right after index.en.bin, device.<locale>.bin (the JS client's default
// index of the locale: core, extension without the related words and
// editorial phrases, compacted), and index.en.related.bin (the related
// words, when there are any) after those, and manifest.json last.
func Build(in *Inputs, version string, locales []string, indexer *Indexer) ([]File, error) {
	base, err := baseRows(in.Emojibase["en"])
	if err != nil {
		return nil, err
	}
	var files []File
	var built []*packfmt.Pack
	ed, err := editorialPhrases(in.Editorial, base)
	if err != nil {
		return nil, err
	}
	if err := checkWords(in, base); err != nil {
		return nil, err
	}
	cores, exts := make([][]packfmt.Row, len(locales)), make([][]packfmt.Row, len(locales))
	assoc := make([][]packfmt.Row, len(locales)) // pack.<locale>.assoc.json
	// rows sets a locale's core, extension and association rows. A phrase
	// is in one of the three: the associations are the words the locale's
	// other phrases lack, and the extension drops a weaker phrase an
	// association holds (a subgroup label), so the packs add up to what
	// one index of them all holds.
	key := phraseKey
	if in.PhraseKey != nil {
		key = in.PhraseKey
	}
	rows := func(i int, related map[string][]string) {
		loc := locales[i]
		cores[i], exts[i] = localeRows(in, loc, base, related, nil, ed[loc])
		if words := in.Associations[loc]; len(words) > 0 {
			_, with := localeRows(in, loc, base, related, words, ed[loc])
			assoc[i] = addedPhrases(with, exts[i])
			exts[i] = withoutPhrases(with, assoc[i])
			assoc[i] = withoutSame(assoc[i], key, cores[i], exts[i])
		}
	}
	for i := range locales {
		rows(i, nil)
	}
	var plainExt []packfmt.Row // the English extension rows without related words
	en := slices.Index(locales, "en")
	if en >= 0 {
		plainExt = exts[en]
	}
	if en >= 0 && in.Related != nil {
		var others []packfmt.Row
		for j := range locales {
			if j != en {
				others = append(append(others, cores[j]...), exts[j]...)
			}
		}
		related := in.Related(cores[en], exts[en], others)
		dropAssociated(related, in.Associations["en"], base, key)
		rows(en, related)
	}
	newPack := func(loc, part string, rows []packfmt.Row) *packfmt.Pack {
		p := &packfmt.Pack{
			Format: packfmt.Format, FormatVersion: packfmt.FormatVersion, PackVersion: version,
			Locale: loc, Part: part, Fields: packfmt.Fields[:], Weights: packfmt.DefaultWeights,
			RowIndex: packfmt.RowIndex, Rows: rows,
		}
		if part == packfmt.PartCore {
			p.Groups = groupLabels(loc)
			if loc == "en" {
				p.Words = in.Words
			}
		}
		return p
	}
	type packFile struct {
		name, part string
		rows       []packfmt.Row
	}
	assocPacks := map[string]*packfmt.Pack{}
	for i, loc := range locales {
		parts := []packFile{{"pack." + loc + ".json", packfmt.PartCore, cores[i]}, {"pack." + loc + ".ext.json", packfmt.PartExt, exts[i]}}
		if len(assoc[i]) > 0 {
			parts = append(parts, packFile{packfmt.AssocPackFile(loc), packfmt.PartExt, assoc[i]})
		}
		for j, part := range parts {
			p := newPack(loc, part.part, part.rows)
			if err := p.Validate(); err != nil {
				return nil, fmt.Errorf("packs: %s: %w", part.name, err)
			}
			var b bytes.Buffer
			if err := packfmt.WritePack(&b, p); err != nil {
				return nil, err
			}
			files = append(files, File{Name: part.name, Data: b.Bytes(), Rows: len(part.rows)})
			if j < 2 {
				built = append(built, p) // core and extension: built[2*i], built[2*i+1]
			} else {
				assocPacks[loc] = p
			}
		}
	}
	var indexes []File
	if indexer != nil {
		// The indexes read the extension packs without the related words,
		// the editorial phrases and the associations: those get part
		// indexes of their own.
		indexed := slices.Clone(built)
		var related *packfmt.Pack
		if en >= 0 {
			plain, _ := splitEditorial(plainExt)
			indexed[2*en+1] = newPack("en", packfmt.PartExt, plain)
			if rows := addedPhrases(exts[en], plainExt); len(rows) > 0 {
				related = newPack("en", packfmt.PartExt, rows)
			}
		}
		edPacks := make([]*packfmt.Pack, len(locales))
		for i, loc := range locales {
			if i == en {
				_, rows := splitEditorial(exts[i])
				edPacks[i] = newPack(loc, packfmt.PartExt, rows)
				continue
			}
			plain, rows := splitEditorial(exts[i])
			indexed[2*i+1] = newPack(loc, packfmt.PartExt, plain)
			edPacks[i] = newPack(loc, packfmt.PartExt, rows)
		}
		for i, loc := range locales {
			var b bytes.Buffer
			if err := indexer.Locale(&b, loc, indexed...); err != nil {
				return nil, fmt.Errorf("packs: %s: %w", packfmt.IndexFile(loc), err)
			}
			indexes = append(indexes, File{Name: packfmt.IndexFile(loc), Data: b.Bytes()})
			var assocIndex []byte
			if p := assocPacks[loc]; p != nil && en >= 0 {
				// The associations' part index: the service adds it to the
				// locale's engine, and the device part is compacted from it.
				name := packfmt.PartIndexFile(loc, packfmt.AssocPart)
				b = bytes.Buffer{}
				if err := indexer.Part(&b, packfmt.AssocPart, indexed[2*en], p); err != nil {
					return nil, fmt.Errorf("packs: %s: %w", name, err)
				}
				assocIndex = b.Bytes()
				indexes = append(indexes, File{Name: name, Data: assocIndex})
			}
			if i == en {
				// The JS client's index: the same indexer over the English
				// core pack alone (what createEngine gets from loadPacks).
				b = bytes.Buffer{}
				if err := indexer.Locale(&b, "en", indexed[2*en]); err != nil {
					return nil, fmt.Errorf("packs: %s: %w", packfmt.CoreIndexFile, err)
				}
				indexes = append(indexes, File{Name: packfmt.CoreIndexFile, Data: b.Bytes()})
			}
			if en >= 0 && indexer.Terms != nil {
				// The JS client's default: the locale's core, extension
				// (without the related words) and editorial phrases in one
				// compact file (device.go); not the associations, which
				// would double its download.
				dev := []*packfmt.Pack{indexed[2*en], built[2*i], built[2*i+1]}
				if i == en {
					dev = []*packfmt.Pack{indexed[2*en], newPack("en", packfmt.PartExt, plainExt)}
				}
				b = bytes.Buffer{}
				if err := indexer.Locale(&b, loc, dev...); err != nil {
					return nil, fmt.Errorf("packs: %s: %w", packfmt.DeviceIndexFile(loc), err)
				}
				c, err := CompactIndex(b.Bytes(), *indexer.Terms)
				if err != nil {
					return nil, fmt.Errorf("packs: %s: %w", packfmt.DeviceIndexFile(loc), err)
				}
				indexes = append(indexes, File{Name: packfmt.DeviceIndexFile(loc), Data: c})
				if assocIndex != nil {
					// The associations for the client to add beside it
					// (loadPacks part assoc): their part index, compacted.
					name := packfmt.DevicePartFile(loc, packfmt.AssocPart)
					if c, err = CompactIndex(assocIndex, *indexer.Terms); err != nil {
						return nil, fmt.Errorf("packs: %s: %w", name, err)
					}
					indexes = append(indexes, File{Name: name, Data: c})
				}
			}
			if len(edPacks[i].Rows) > 0 && en >= 0 {
				b = bytes.Buffer{}
				name := packfmt.PartIndexFile(loc, packfmt.EditorialPart)
				if err := indexer.Part(&b, packfmt.EditorialPart, indexed[2*en], edPacks[i]); err != nil {
					return nil, fmt.Errorf("packs: %s: %w", name, err)
				}
				indexes = append(indexes, File{Name: name, Data: b.Bytes()})
			}
			if loc != "en" || related == nil {
				continue
			}
			b = bytes.Buffer{}
			if err := indexer.Part(&b, packfmt.RelatedPart, indexed[2*en], related); err != nil {
				return nil, fmt.Errorf("packs: %s: %w", packfmt.RelatedIndexFile, err)
			}
			indexes = append(indexes, File{Name: packfmt.RelatedIndexFile, Data: b.Bytes()})
		}
	}
	m, err := manifest(in, version, locales, files, indexes)
	if err != nil {
		return nil, err
	}
	files = append(files, indexes...)
	return append(files, File{Name: "manifest.json", Data: m}), nil
}

// withoutPhrases returns rows less the phrases minus lists for the same id
// and field (extension-style rows), leaving out rows left empty.
func withoutPhrases(rows, minus []packfmt.Row) []packfmt.Row {
	drop := map[string]*packfmt.Row{}
	for i := range minus {
		drop[minus[i].ID] = &minus[i]
	}
	var out []packfmt.Row
	for _, r := range rows {
		if d := drop[r.ID]; d != nil {
			for f := range r.Phrases {
				r.Phrases[f] = slices.DeleteFunc(slices.Clone(r.Phrases[f]), func(ph string) bool { return slices.Contains(d.Phrases[f], ph) })
			}
		}
		if !emptyPhrases(&r) {
			out = append(out, r)
		}
	}
	return out
}

// withoutSame drops from rows (extension-style) each phrase that key makes
// equal to a dictionary phrase of the same id in packs ("dr" beside
// "dr."): the engine holds such phrases once, which the JS client, reading
// the packs apart, would not know. Editorial phrases are indexed apart and
// do not count.
func withoutSame(rows []packfmt.Row, key func(string) string, packs ...[]packfmt.Row) []packfmt.Row {
	have := map[string]map[string]bool{}
	for _, p := range packs {
		for _, r := range p {
			for f, list := range r.Phrases {
				if f == packfmt.FieldEditorial || f == packfmt.FieldEditorialMore {
					continue
				}
				for _, ph := range list {
					if have[r.ID] == nil {
						have[r.ID] = map[string]bool{}
					}
					have[r.ID][key(ph)] = true
				}
			}
		}
	}
	var out []packfmt.Row
	for _, r := range rows {
		for f := range r.Phrases {
			r.Phrases[f] = slices.DeleteFunc(r.Phrases[f], func(ph string) bool { return have[r.ID][key(ph)] })
		}
		if !emptyPhrases(&r) {
			out = append(out, r)
		}
	}
	return out
}

// dropAssociated removes from the related words of each emoji (hexcode ->
// words) those its associations (emoji without FE0F -> words) already
// give it, as key compares them: like the dictionary's, an emoji's
// associations are never its related words too, so the engine answers alike
// whether the two sit in one index (the JSON packs) or apart (index.en.bin,
// index.en.related.bin).
func dropAssociated(related, assoc map[string][]string, base []*baseRow, key func(string) string) {
	for _, b := range base {
		words := assoc[stripFE0F(b.Emoji)]
		if len(words) == 0 || len(related[b.ID]) == 0 {
			continue
		}
		have := map[string]bool{}
		for _, w := range words {
			have[key(w)] = true
		}
		related[b.ID] = slices.DeleteFunc(related[b.ID], func(w string) bool { return have[key(w)] })
	}
}

// addedPhrases returns, per row of rows, the phrases that the row of the
// same id in plain lacks (extension-style rows: id and phrases only).
func addedPhrases(rows, plain []packfmt.Row) []packfmt.Row {
	had := map[string]*packfmt.Row{}
	for i := range plain {
		had[plain[i].ID] = &plain[i]
	}
	var out []packfmt.Row
	for _, r := range rows {
		var x packfmt.Row
		x.ID, x.Group, x.Subgroup = r.ID, -1, -1
		for f, list := range r.Phrases {
			for _, ph := range list {
				if p := had[r.ID]; p == nil || !slices.Contains(p.Phrases[f], ph) {
					x.Phrases[f] = append(x.Phrases[f], ph)
				}
			}
		}
		if !emptyPhrases(&x) {
			out = append(out, x)
		}
	}
	return out
}

type baseRow struct {
	packfmt.Row
	order  int
	gender bool
	eb     *ebEntry
}

// baseRows validates emojibase's English data and returns one row per
// searchable emoji (components and regional indicators left out), in
// emojibase order, with the language-neutral columns filled in.
func baseRows(data []ebEntry) ([]*baseRow, error) {
	var errs []error
	var rows []*baseRow
	seen := map[string]bool{}
	for i := range data {
		e := &data[i]
		if e.Hexcode == "" || e.Emoji == "" || e.Label == "" || e.Version == nil {
			errs = append(errs, fmt.Errorf("packs: emojibase entry %d (%q) lacks hexcode, emoji, label or version", i, e.Hexcode))
			continue
		}
		if seen[e.Hexcode] {
			errs = append(errs, fmt.Errorf("packs: duplicate emojibase hexcode %s", e.Hexcode))
		}
		seen[e.Hexcode] = true
		if e.Group == nil {
			continue // regional indicators
		}
		if e.Subgroup == nil || e.Order == nil || *e.Group < 0 || *e.Group > 9 {
			errs = append(errs, fmt.Errorf("packs: emojibase entry %s has a bad group, subgroup or order", e.Hexcode))
			continue
		}
		if *e.Group == 2 {
			continue // components: skin tones, hair styles
		}
		r := &baseRow{order: *e.Order, gender: e.Gender != nil, eb: e}
		r.ID, r.Emoji, r.Group, r.Subgroup, r.Version = e.Hexcode, e.Emoji, *e.Group, *e.Subgroup, *e.Version
		r.Skins = len(e.Skins) > 0
		rows = append(rows, r)
	}
	if len(rows) < 1500 {
		errs = append(errs, fmt.Errorf("packs: only %d emoji in emojibase en data", len(rows)))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	slices.SortStableFunc(rows, func(a, b *baseRow) int { return a.order - b.order })
	ids := map[string]string{}
	for _, r := range rows {
		ids[stripFE0F(r.ID)] = r.ID
	}
	for _, r := range rows {
		r.Prior = prior(r)
		if fam, ok := ids[familyKey(r.ID)]; ok && fam != r.ID {
			r.Family = fam
		}
	}
	return rows, nil
}

// prior is the popularity prior, 0..100, from emojibase data only (FORMAT.md):
// older emoji are older in every keyboard and used far more; faces and hands
// lead chat use; emoji with an ASCII emoticon or a GitHub shortcode have been
// typed as text for years; gender/direction variants and flags trail.
func prior(r *baseRow) int {
	p := 0
	switch v := r.Version; {
	case v <= 1:
		p += 40
	case v <= 5:
		p += 28
	case v <= 11:
		p += 18
	default:
		p += 8
	}
	switch r.Group {
	case 0:
		p += 30
	case 1:
		p += 18
		if r.Subgroup >= 16 && r.Subgroup <= 22 { // hands
			p += 8
		}
	case 3, 4, 6:
		p += 14
	case 5, 7:
		p += 10
	case 8:
		p += 6
	case 9:
		p += 2
	}
	if r.eb.Emoticon != nil {
		p += 10
	}
	if r.gender || strings.Contains(r.ID, "-200D-") {
		p -= 6
	}
	return max(0, min(100, p))
}

// familyKey maps a gender or direction variant to its neutral base, without
// FE0F: the ZWJ signs ♀ ♂ ➡ are dropped and a leading man or woman becomes a person.
func familyKey(hex string) string {
	cps := strings.Split(stripFE0FHex(hex), "-")
	var out []string
	for i := 0; i < len(cps); i++ {
		if cps[i] == "200D" && i+1 < len(cps) && (cps[i+1] == "2640" || cps[i+1] == "2642" || cps[i+1] == "27A1") {
			i++
			continue
		}
		out = append(out, cps[i])
	}
	if len(out) > 1 && (out[0] == "1F468" || out[0] == "1F469") && out[1] == "200D" {
		out[0] = "1F9D1"
	}
	return strings.Join(out, "-")
}

func stripFE0FHex(hex string) string {
	parts := strings.Split(hex, "-")
	parts = slices.DeleteFunc(parts, func(s string) bool { return s == "FE0F" })
	return strings.Join(parts, "-")
}

func stripFE0F(s string) string { return strings.ReplaceAll(s, "\uFE0F", "") }

// localeRows builds the core and extension rows of one locale.
// assoc, when set, are the locale's associations (emoji -> words).
func localeRows(in *Inputs, loc string, base []*baseRow, related, assoc map[string][]string, ed map[string]*edRow) (core, ext []packfmt.Row) {
	eb := map[string]*ebEntry{}
	for i := range in.Emojibase[loc] {
		eb[in.Emojibase[loc][i].Hexcode] = &in.Emojibase[loc][i]
	}
	sets := in.Shortcodes[loc]
	coreSets, extSets := []string{"cldr-native", "emojibase-native"}, []string{"cldr", "emojibase"}
	if loc == "en" {
		coreSets, extSets = []string{"cldr", "emojibase", "github", "iamcal", "joypixels"}, []string{"emojibase-legacy"}
	}
	subgroups := map[int]string{}
	for _, m := range in.Messages[loc].Subgroups {
		subgroups[m.Order] = m.Message
	}
	for _, b := range base {
		c := b.Row
		c.Phrases = [packfmt.NumStoredFields][]string{}
		var x packfmt.Row
		x.ID, x.Group, x.Subgroup = b.ID, -1, -1
		key := stripFE0F(b.Emoji) // the CLDR, variant, place and emoticon key
		ann := in.CLDR[loc][key]
		e := eb[b.ID]
		switch {
		case e != nil && e.Label != "":
			c.Label = e.Label
		case len(ann.TTS) > 0:
			c.Label = ann.TTS[0]
		default:
			c.Label = b.eb.Label // display fallback only, not searched
		}
		if e != nil || len(ann.TTS) > 0 {
			c.Phrases[packfmt.FieldName] = []string{c.Label}
		}
		c.Phrases[packfmt.FieldName] = append(c.Phrases[packfmt.FieldName], ann.TTS...)
		for _, set := range coreSets {
			c.Phrases[packfmt.FieldShortcode] = append(c.Phrases[packfmt.FieldShortcode], sets[set][b.ID]...)
		}
		c.Phrases[packfmt.FieldKeyword] = ann.Default
		if e != nil {
			c.Phrases[packfmt.FieldAlias] = e.Tags
		}
		for _, set := range extSets {
			x.Phrases[packfmt.FieldShortcode] = append(x.Phrases[packfmt.FieldShortcode], sets[set][b.ID]...)
		}
		if loc == "en" {
			x.Phrases[packfmt.FieldAlias] = append(emoticons(b.eb.Emoticon), in.Emoticons[key]...)
		}
		x.Phrases[packfmt.FieldKeyword] = append(x.Phrases[packfmt.FieldKeyword], in.Variants[loc][key]...)
		x.Phrases[packfmt.FieldAlias] = append(x.Phrases[packfmt.FieldAlias], in.Places[loc][key]...)
		x.Phrases[packfmt.FieldAlias] = append(x.Phrases[packfmt.FieldAlias], assoc[key]...)
		if s := subgroups[b.Subgroup]; s != "" {
			x.Phrases[packfmt.FieldLow] = []string{s}
		}
		x.Phrases[packfmt.FieldLow] = append(x.Phrases[packfmt.FieldLow], related[b.ID]...)
		seen := map[string]bool{}
		clean(&c, seen)
		clean(&x, seen)
		if e := ed[b.ID]; e != nil {
			// Editorial phrases may repeat a dictionary phrase of the
			// emoji: they rank it (the index keeps the strongest field).
			var er packfmt.Row
			er.Phrases[packfmt.FieldEditorial] = e.first
			er.Phrases[packfmt.FieldEditorialMore] = e.more
			clean(&er, map[string]bool{})
			x.Phrases[packfmt.FieldEditorial] = er.Phrases[packfmt.FieldEditorial]
			x.Phrases[packfmt.FieldEditorialMore] = er.Phrases[packfmt.FieldEditorialMore]
		}
		core = append(core, c)
		if !emptyPhrases(&x) {
			ext = append(ext, x)
		}
	}
	return core, ext
}

// checkWords refuses place words or emoticons for an emoji the packs do not
// have (a mistyped region code or emoji would otherwise be dropped without a
// word). Keys are emoji without FE0F.
func checkWords(in *Inputs, base []*baseRow) error {
	have := map[string]bool{}
	for _, b := range base {
		have[stripFE0F(b.Emoji)] = true
	}
	var errs []error
	check := func(what string, m map[string][]string) {
		for _, e := range sortedKeys(m) {
			if !have[e] {
				errs = append(errs, fmt.Errorf("packs: %s: no emoji %s", what, e))
			}
		}
	}
	for _, loc := range sortedKeys(in.Places) {
		check("places "+loc, in.Places[loc])
	}
	for _, loc := range sortedKeys(in.Associations) {
		check("associations "+loc, in.Associations[loc])
	}
	check("emoticons", in.Emoticons)
	return errors.Join(errs...)
}

// clean trims phrases, drops separators and control characters, and removes
// phrases already present (case-insensitively, a hyphen as a space) in a
// stronger field or row.
func clean(r *packfmt.Row, seen map[string]bool) {
	for f := range r.Phrases {
		var out []string
		for _, s := range r.Phrases[f] {
			s = strings.Join(strings.FieldsFunc(s, func(c rune) bool { return c < 0x20 || c == '|' }), " ")
			s = strings.TrimSpace(s)
			k := phraseKey(s)
			if s == "" || seen[k] {
				continue
			}
			seen[k] = true
			out = append(out, s)
		}
		r.Phrases[f] = out
	}
}

// phraseKey is the text two phrases share when they are one to the engine
// ("Blue-green" is "blue green").
func phraseKey(s string) string { return strings.ToLower(strings.ReplaceAll(s, "-", " ")) }

func emptyPhrases(r *packfmt.Row) bool {
	for _, l := range r.Phrases {
		if len(l) > 0 {
			return false
		}
	}
	return true
}

func emoticons(v any) []string {
	switch t := v.(type) {
	case string:
		return []string{t}
	case []any:
		var out []string
		for _, x := range t {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

type manifestFile struct {
	SHA256    string `json:"sha256"`
	Bytes     int    `json:"bytes"`
	GzipBytes int    `json:"gzipBytes"`
	Rows      int    `json:"rows"`
}

// manifest lists the pack files and the binary indexes (for the Worker;
// served too) with their hashes; hash covers both, in order.
func manifest(in *Inputs, version string, locales []string, files, indexes []File) ([]byte, error) {
	m := struct {
		Format        string                  `json:"format"`
		FormatVersion int                     `json:"formatVersion"`
		PackVersion   string                  `json:"packVersion"`
		Inputs        map[string]string       `json:"inputs"`
		Locales       []string                `json:"locales"`
		Hash          string                  `json:"hash"`
		Files         map[string]manifestFile `json:"files"`
		Indexes       map[string]manifestFile `json:"indexes,omitempty"`
	}{packfmt.ManifestFormat, packfmt.FormatVersion, version, in.Versions, locales, "", map[string]manifestFile{}, nil}
	all := sha256.New()
	for i, f := range append(slices.Clip(files), indexes...) {
		sum := sha256.Sum256(f.Data)
		var gz bytes.Buffer
		w, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
		w.Write(f.Data)
		w.Close()
		mf := manifestFile{hex.EncodeToString(sum[:]), len(f.Data), gz.Len(), f.Rows}
		if i < len(files) {
			m.Files[f.Name] = mf
		} else {
			if m.Indexes == nil {
				m.Indexes = map[string]manifestFile{}
			}
			m.Indexes[f.Name] = mf
		}
		all.Write([]byte(f.Name + "\x00" + hex.EncodeToString(sum[:]) + "\n"))
	}
	m.Hash = hex.EncodeToString(all.Sum(nil))
	b, err := json.MarshalIndent(m, "", "  ")
	return append(b, '\n'), err
}
