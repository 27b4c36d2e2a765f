// Package culture builds the culture files of a pack version
// (packs/FORMAT.md, "Culture files") from the editorial sources in
// data/<locale>.json: triggers are normalized like search queries, each
// emoji is checked against the packs and given its hexcode, and every file
// is validated with engine/culture's Assert before it is written. The build
// is deterministic: the same sources and packs give the same bytes.
//
//	go run ./packs/cmd/buildculture   # writes packs/dist/<packVersion>/culture/
package culture

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/emojisearch/emojisearch/engine"
	ec "github.com/emojisearch/emojisearch/engine/culture"
	"github.com/emojisearch/emojisearch/engine/packfmt"
)

// Source is an editorial source file, data/<locale>.json.
type Source struct {
	Locale  string     `json:"locale"`
	From    string     `json:"from"` // first day covered; the file covers 12 months from it
	Entries []ec.Entry `json:"entries"`
}

// Output names.
const (
	Dir       = "culture"    // under packs/dist/<packVersion>/
	IndexName = "index.json" // the index of the culture files
)

// FileName is the culture file of a locale.
func FileName(locale string) string { return "culture." + locale + ".json" }

// LastDay is the last day a file starting on from covers: 12 months, from
// included.
func LastDay(from string) string {
	t, err := time.Parse("2006-01-02", from)
	if err != nil {
		return from
	}
	return t.AddDate(1, 0, -1).Format("2006-01-02")
}

// PackVersion reads the pack version of the single packs/dist/<v>/manifest.json
// under distRoot.
func PackVersion(distRoot string) (string, error) {
	ms, err := filepath.Glob(filepath.Join(distRoot, "*", "manifest.json"))
	if err != nil {
		return "", err
	}
	if len(ms) != 1 {
		return "", fmt.Errorf("buildculture: want one manifest under %s, found %d: pass the version", distRoot, len(ms))
	}
	b, err := os.ReadFile(ms[0])
	if err != nil {
		return "", err
	}
	var m struct {
		Format      string `json:"format"`
		PackVersion string `json:"packVersion"`
	}
	if err := json.Unmarshal(b, &m); err != nil || m.Format != packfmt.ManifestFormat || m.PackVersion == "" {
		return "", fmt.Errorf("buildculture: %s is not a pack manifest", ms[0])
	}
	return m.PackVersion, nil
}

// Catalog maps an emoji to its pack hexcode.
type Catalog map[string]string

// LoadCatalog reads the core packs of every locale of a pack version folder.
func LoadCatalog(packDir string) (Catalog, error) {
	cat := Catalog{}
	for _, loc := range packfmt.Locales {
		b, err := os.ReadFile(filepath.Join(packDir, "pack."+loc+".json"))
		if err != nil {
			return nil, err
		}
		p, err := packfmt.Decode(b)
		if err != nil {
			return nil, fmt.Errorf("pack.%s.json: %w", loc, err)
		}
		for _, r := range p.Rows {
			if r.Emoji != "" {
				cat[r.Emoji] = r.ID
			}
		}
	}
	return cat, nil
}

// Lookup returns the hexcode of an emoji of the packs; a text-style
// spelling without U+FE0F is accepted.
func (c Catalog) Lookup(emoji string) (string, bool) {
	if id, ok := c[emoji]; ok {
		return id, true
	}
	id, ok := c[emoji+"\uFE0F"]
	return id, ok
}

// Compile turns a source into a culture file: triggers normalized (order
// kept, duplicates dropped), regions upper case, hexcodes from the packs.
// It reports every problem at once.
func Compile(src Source, packVersion string, cat Catalog) (*ec.File, error) {
	f := &ec.File{Format: ec.Format, FormatVersion: ec.FormatVersion, PackVersion: packVersion,
		Locale: src.Locale, From: src.From, To: LastDay(src.From), Entries: make([]ec.Entry, 0, len(src.Entries))}
	var errs []error
	for _, e := range src.Entries {
		hex, ok := cat.Lookup(e.Emoji)
		if !ok {
			errs = append(errs, fmt.Errorf("%s: entry %q: emoji %q is not in the packs", src.Locale, e.ID, e.Emoji))
		}
		e.Hexcode = hex
		var trig []string
		for _, t := range e.Triggers {
			n := engine.Normalize(t, engine.MaxQueryLength)
			if n != "" && !slices.Contains(trig, n) {
				trig = append(trig, n)
			}
		}
		e.Triggers = trig
		for i, r := range e.Regions {
			e.Regions[i] = strings.ToUpper(r)
		}
		f.Entries = append(f.Entries, e)
	}
	if err := ec.Assert(f); err != nil {
		errs = append(errs, fmt.Errorf("%s: %w", src.Locale, err))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return f, nil
}

// Encode writes a culture file or index deterministically: indented JSON,
// no HTML escaping, final newline.
func Encode(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// ReadSources reads data/<locale>.json for every locale that has one.
func ReadSources(dataDir string) ([]Source, error) {
	var out []Source
	for _, loc := range packfmt.Locales {
		b, err := os.ReadFile(filepath.Join(dataDir, loc+".json"))
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		var s Source
		if err := jsonStrict(b, &s); err != nil {
			return nil, fmt.Errorf("%s.json: %w", loc, err)
		}
		if s.Locale != loc {
			return nil, fmt.Errorf("%s.json: locale is %q", loc, s.Locale)
		}
		out = append(out, s)
	}
	return out, nil
}

// Build compiles the sources and returns the output files by name (the
// culture files and index.json).
func Build(srcs []Source, packVersion string, cat Catalog) (map[string][]byte, error) {
	files := map[string][]byte{}
	idx := ec.Index{Format: ec.IndexFormat, FormatVersion: ec.FormatVersion, PackVersion: packVersion, Locales: map[string]ec.IndexEntry{}}
	var errs []error
	for _, s := range srcs {
		if idx.From == "" {
			idx.From, idx.To = s.From, LastDay(s.From)
		} else if s.From != idx.From {
			errs = append(errs, fmt.Errorf("%s: from %s differs from %s", s.Locale, s.From, idx.From))
		}
		f, err := Compile(s, packVersion, cat)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		b, err := Encode(f)
		if err != nil {
			return nil, err
		}
		sum := sha256.Sum256(b)
		kinds := map[string]int{}
		for _, e := range f.Entries {
			kinds[e.Kind]++
		}
		name := FileName(s.Locale)
		files[name] = b
		idx.Locales[s.Locale] = ec.IndexEntry{File: name, SHA256: hex.EncodeToString(sum[:]), Bytes: len(b), Entries: len(f.Entries), Kinds: kinds}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	b, err := Encode(idx)
	if err != nil {
		return nil, err
	}
	files[IndexName] = b
	return files, nil
}

// Run builds the culture files of the pack version under distRoot
// (version "" reads it from the manifest) from dataDir and writes them to
// distRoot/<version>/culture/, removing culture files of locales without a
// source.
func Run(dataDir, distRoot, version string) (string, map[string][]byte, error) {
	if version == "" {
		v, err := PackVersion(distRoot)
		if err != nil {
			return "", nil, err
		}
		version = v
	}
	packDir := filepath.Join(distRoot, version)
	cat, err := LoadCatalog(packDir)
	if err != nil {
		return "", nil, err
	}
	srcs, err := ReadSources(dataDir)
	if err != nil {
		return "", nil, err
	}
	files, err := Build(srcs, version, cat)
	if err != nil {
		return "", nil, err
	}
	out := filepath.Join(packDir, Dir)
	if err := os.MkdirAll(out, 0o755); err != nil {
		return "", nil, err
	}
	old, _ := filepath.Glob(filepath.Join(out, "culture.*.json"))
	for _, p := range old {
		if _, ok := files[filepath.Base(p)]; !ok {
			if err := os.Remove(p); err != nil {
				return "", nil, err
			}
		}
	}
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		if err := os.WriteFile(filepath.Join(out, n), files[n], 0o644); err != nil {
			return "", nil, err
		}
	}
	return out, files, nil
}

func jsonStrict(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}
