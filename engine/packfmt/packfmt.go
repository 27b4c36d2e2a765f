// Package packfmt defines the pack file format shared by the pack build
// (packs/) and the alias engine (engine/): the constants spec 3 exports as
// PACK_FORMAT, PACK_FORMAT_VERSION, FIELDS, DEFAULT_WEIGHTS and ROW_INDEX, the
// Pack and Row types, and Validate. packs/FORMAT.md describes the files.
//
// It lives under engine/ because the engine is the foundation: the reader
// (engine/) and the writer (packs/, the build) both import it downward, and
// engine/ imports nothing under packs/. It is a leaf package: standard
// library only, so both sides import it without cycles and it builds for
// js/wasm.
package packfmt

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Format is PACK_FORMAT, the value of a pack's "format" member.
const Format = "emojisearch.pack"

// FormatVersion is PACK_FORMAT_VERSION. Version 2 added the editorial
// fields (and their two row columns); readers also accept version 1 (rows
// without them) and reject other versions.
const FormatVersion = 2

// ManifestFormat is the value of manifest.json's "format" member.
const ManifestFormat = "emojisearch.manifest"

// Parts of a pack.
const (
	PartCore = "core"
	PartExt  = "ext"
)

// Field numbers a phrase belongs to. FieldTypo is never stored in a pack: the
// engine reports it for phrases matched through typo tolerance. The
// editorial fields are our phrase layer (packs/editorial): a concept's
// first emoji in FieldEditorial, its others in FieldEditorialMore.
const (
	FieldName = iota
	FieldShortcode
	FieldKeyword
	FieldAlias
	FieldLow
	FieldEditorial
	FieldEditorialMore
	FieldTypo
	NumStoredFields = FieldEditorialMore + 1
)

// Fields is FIELDS: the AliasResult field names, indexed by field number.
var Fields = [...]string{"name", "shortcode", "keyword", "alias", "low", "editorial", "editorial_more", "typo"}

// DefaultWeights is DEFAULT_WEIGHTS: the score of an exact, whole-phrase match
// per field; "typo" multiplies the field weight of a typo-tolerant match and
// "english" multiplies English phrases when another locale is requested.
var DefaultWeights = map[string]float64{
	"name":      1.0,
	"shortcode": 0.97,
	"keyword":   0.85,
	"alias":     0.7,
	"low":       0.3,
	// An editorial phrase says what people mean by it: its first emoji
	// ranks above a dictionary keyword, the others just below one.
	"editorial":      0.9,
	"editorial_more": 0.8,
	"typo":           0.55,
	"english":        0.92,
}

// Column numbers of a row: ROW_INDEX.
const (
	ColID = iota
	ColEmoji
	ColGroup
	ColSubgroup
	ColVersion
	ColSkins
	ColPrior
	ColFamily
	ColLabel
	ColName
	ColShortcode
	ColKeyword
	ColAlias
	ColLow
	ColEditorial
	ColEditorialMore
	NumCols
)

// RowIndex is ROW_INDEX: column name to position in a row array.
var RowIndex = map[string]int{
	"id": ColID, "emoji": ColEmoji, "group": ColGroup, "subgroup": ColSubgroup,
	"version": ColVersion, "skins": ColSkins, "prior": ColPrior, "family": ColFamily,
	"label": ColLabel, "name": ColName, "shortcode": ColShortcode, "keyword": ColKeyword,
	"alias": ColAlias, "low": ColLow, "editorial": ColEditorial, "editorial_more": ColEditorialMore,
}

// Sep joins the phrases of one field inside a row cell. Phrases never contain it.
const Sep = "|"

// Pack is one pack file.
type Pack struct {
	Format        string             `json:"format"`
	FormatVersion int                `json:"formatVersion"`
	PackVersion   string             `json:"packVersion"`
	Locale        string             `json:"locale"`
	Part          string             `json:"part"`
	Fields        []string           `json:"fields"`
	Weights       map[string]float64 `json:"weights"`
	RowIndex      map[string]int     `json:"rowIndex"`
	Groups        []string           `json:"groups,omitempty"`
	// Words, in the English core pack only, are the word lists of the
	// ranking rules (below), so clients read them from the pack instead of
	// shipping them in their code. Rows stays the last member (WritePack).
	Words *Words `json:"words,omitempty"`
	Rows  []Row  `json:"rows"`
}

// Words are the word lists of the engine's ranking rules
// (engine/internal/index/stop.go is their one source; the pack build
// writes them from there with engine.RankingWords), normalized like
// queries (engine.Normalize).
type Words struct {
	// Stop: per pack locale, its function words, which weigh less in a
	// query that also holds content words.
	Stop map[string][]string `json:"stop"`
	// NotStop: per locale, words that are content words there although
	// another locale lists them as function words (French "thé" is "the").
	NotStop map[string][]string `json:"notStop"`
	// Gender: words that name a gender in any pack locale (a Han word
	// holding 女 or 男 also does, by rule).
	Gender []string `json:"gender"`
	// Flag: words that say "flag" in any pack locale.
	Flag []string `json:"flag"`
	// Couples: two-person emoji, without their tones and U+FE0F, mapped to
	// the emoji their tones fold into (👩🏻‍🤝‍👨🏿 is 👫): what a client's
	// entry lookup needs beyond the packs' rows.
	Couples map[string]string `json:"couples,omitempty"`
}

// Row is one emoji in a pack. Core rows carry every column; extension rows
// carry the id and phrase columns only (the others are zero).
type Row struct {
	ID       string  // emojibase hexcode of the base emoji
	Emoji    string  // fully qualified emoji
	Group    int     // emojibase group number, -1 in extension rows
	Subgroup int     // emojibase subgroup number, -1 in extension rows
	Version  float64 // Emoji version that introduced it
	Skins    bool    // has skin-tone variants
	Prior    int     // popularity prior, 0..100 (FORMAT.md)
	Family   string  // id of the gender/direction-neutral variant, "" if none
	Label    string  // the locale's name of the emoji
	Phrases  [NumStoredFields][]string
}

// Errors returned by Validate and the decoders.
var (
	ErrFormat  = errors.New("packfmt: not an emoji pack")
	ErrVersion = errors.New("packfmt: unsupported pack format version")
	ErrInvalid = errors.New("packfmt: invalid pack")
)

// Validate checks a decoded pack and reports every problem at once.
func (p *Pack) Validate() error {
	if p.Format != Format {
		return fmt.Errorf("%w: format %q", ErrFormat, p.Format)
	}
	if p.FormatVersion != FormatVersion && p.FormatVersion != 1 {
		return fmt.Errorf("%w: %d", ErrVersion, p.FormatVersion)
	}
	var errs []error
	bad := func(format string, args ...any) {
		errs = append(errs, fmt.Errorf("%w: "+format, append([]any{ErrInvalid}, args...)...))
	}
	if p.PackVersion == "" {
		bad("empty packVersion")
	}
	if p.Locale == "" {
		bad("empty locale")
	}
	if p.Part != PartCore && p.Part != PartExt {
		bad("part %q", p.Part)
	}
	seen := make(map[string]bool, len(p.Rows))
	for i, r := range p.Rows {
		if r.ID == "" || seen[r.ID] {
			bad("row %d: empty or duplicate id %q", i, r.ID)
		}
		seen[r.ID] = true
		if p.Part == PartCore && (r.Emoji == "" || r.Label == "" || r.Group < 0) {
			bad("row %d (%s): core row without emoji, label or group", i, r.ID)
		}
		for f, list := range r.Phrases {
			for _, s := range list {
				if s == "" || strings.Contains(s, Sep) || !utf8.ValidString(s) {
					bad("row %d (%s): field %s: bad phrase %q", i, r.ID, Fields[f], s)
				}
			}
		}
		if len(errs) > 20 {
			break
		}
	}
	return errors.Join(errs...)
}
