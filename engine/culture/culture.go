// Package culture is the culture layer of spec 1 ("Culture entries", "Culture
// rules" of GET /v1/search) and spec 3 ("Culture layer") in Go: the culture
// file format (packs/FORMAT.md, "Culture files"), its validation, and the
// helpers that apply a culture file to a canonical result list.
//
//	c, err := culture.Parse(data) // culture.<locale>.json
//	day := culture.UTCDay(now)    // the server checks windows against the UTC day (rule 4)
//	results = culture.ApplyCulture(c, query, results, culture.Options{Day: day, Region: "BR", Limit: 24})
//
// Culture results join right after the top canonical result (at most
// MaxInserted of them, then the list is cut to the limit); custom emoji stay
// first. A regional entry whose scope holds the request region leads only for
// a query equal to its trigger and above a canonical answer it names
// (MatchRegionalLead).
//
// The package is pure Go (standard library and engine) and builds natively and
// for js/wasm. Days are "YYYY-MM-DD" strings, which order like the days they
// name.
package culture

import (
	"errors"

	"github.com/emojisearch/emojisearch/engine"
)

// Format constants (spec 3 CULTURE_FORMAT, CULTURE_FORMAT_VERSION).
const (
	Format        = "emojisearch.culture"
	FormatVersion = 1
	// IndexFormat is the format of index.json next to the culture files.
	IndexFormat = "emojisearch.culture.index"
)

// Entry kinds.
const (
	KindLasting  = "lasting"  // always active: a culturally specific meaning
	KindSeasonal = "seasonal" // active inside its windows: a season or a recurring observance
	KindEvent    = "event"    // active inside its windows: a dated holiday or event
	KindRegional = "regional" // only with a request region in Regions; windows optional
)

// Result constants of a CultureResult.
const (
	Source = "culture" // Result.Source
	Field  = "culture" // Result.Field
)

const (
	// MaxInserted is how many culture results one answer carries at most (rule 2).
	MaxInserted = 5
	// CacheControl is the Cache-Control of culture answers and culture files
	// (rule 6 and the static files table).
	CacheControl = "public, max-age=3600"
	// SourceCustom is the source of custom emoji, which stay first.
	SourceCustom = "custom"
)

var (
	// ErrFormat: the data is not a culture file of this format version.
	ErrFormat = errors.New("culture: not a culture file")
	// ErrInvalid: a culture file breaks a rule of the format; the error lists every problem.
	ErrInvalid = errors.New("culture: invalid culture file")
	// ErrFlag: a `culture` parameter other than 0, 1, true, false, none.
	ErrFlag = errors.New("culture: culture must be 0, 1, true, false or none")
	// ErrRegion: a `region` that is not an ISO 3166-1 alpha-2 region.
	ErrRegion = errors.New("culture: region must be an ISO 3166-1 alpha-2 region")
	// ErrDay: a day that is not a real YYYY-MM-DD date.
	ErrDay = errors.New("culture: day must be YYYY-MM-DD")
)

// Window is an inclusive range of days.
type Window struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// Entry is one culture entry.
type Entry struct {
	ID       string   `json:"id"`
	Emoji    string   `json:"emoji"`
	Hexcode  string   `json:"hexcode"`
	Kind     string   `json:"kind"`
	Weight   float64  `json:"weight"`
	Context  string   `json:"context"`
	Triggers []string `json:"triggers"`
	Windows  []Window `json:"windows,omitempty"`
	// Regions is the scope of a regional entry (ISO 3166-1 alpha-2, upper case).
	Regions []string `json:"regions,omitempty"`
	// Over names the canonical answers (hexcodes) a regional entry leads
	// above (rule 3); a regional entry without Over never leads.
	Over []string `json:"over,omitempty"`
}

// File is a culture file, culture.<locale>.json.
type File struct {
	Format        string  `json:"format"`
	FormatVersion int     `json:"formatVersion"`
	PackVersion   string  `json:"packVersion"`
	Locale        string  `json:"locale"`
	From          string  `json:"from"` // first day covered
	To            string  `json:"to"`   // last day covered
	Entries       []Entry `json:"entries"`
}

// Index is index.json: the culture files of one pack version.
type Index struct {
	Format        string                `json:"format"`
	FormatVersion int                   `json:"formatVersion"`
	PackVersion   string                `json:"packVersion"`
	From          string                `json:"from"`
	To            string                `json:"to"`
	Locales       map[string]IndexEntry `json:"locales"`
}

// IndexEntry describes one culture file in the index.
type IndexEntry struct {
	File    string         `json:"file"`
	SHA256  string         `json:"sha256"`
	Bytes   int            `json:"bytes"`
	Entries int            `json:"entries"`
	Kinds   map[string]int `json:"kinds"`
}

// Result is a result item of spec 1: canonical (alias, semantic), custom or
// culture. Culture results (CultureResult of spec 3) carry Context,
// CultureID, Match (the trigger) and Field "culture"; their Score is the
// entry weight. It is the one result type of the search path: the service
// answers with it (service/search.Item names it), so its JSON encoding is
// spec 1's result item exactly. Label, Match and Field say why an alias or
// culture result matched (spec 3's AliasResult); spec 1's item has none of
// them, so they live in process only and are never encoded.
type Result struct {
	Emoji     string  `json:"emoji"`
	ID        string  `json:"id"`
	Score     float64 `json:"score"`
	Source    string  `json:"source"`
	ImageURL  string  `json:"imageUrl,omitempty"`
	Shortcode string  `json:"shortcode,omitempty"`
	Label     string  `json:"-"`
	Match     string  `json:"-"`
	Field     string  `json:"-"`
	Context   string  `json:"context,omitempty"`
	CultureID string  `json:"cultureId,omitempty"`
}

// FromAlias converts alias engine results.
func FromAlias(rs []engine.Result) []Result {
	out := make([]Result, len(rs))
	for i, r := range rs {
		out[i] = Result{Emoji: r.Emoji, ID: r.ID, Score: r.Score, Source: r.Source, Label: r.Label, Match: r.Match, Field: r.Field}
	}
	return out
}

// Featured is an item of RelevantNow.
type Featured struct {
	Emoji     string `json:"emoji"`
	Hexcode   string `json:"hexcode"`
	Context   string `json:"context"`
	CultureID string `json:"cultureId"`
}

// Options are the request settings of ApplyCulture.
type Options struct {
	Day    string // YYYY-MM-DD the windows are checked against
	Region string // ISO 3166-1 alpha-2, "" for none
	Limit  int    // cut; <= 0 means no cut
}

// Info is the `culture` object of a search response.
type Info struct {
	From   string  `json:"from"`
	Day    string  `json:"day"`
	Region *string `json:"region"`
}

// Info returns the response's culture object for a request.
func (f *File) Info(day, region string) *Info {
	if f == nil {
		return nil
	}
	in := &Info{From: f.From, Day: day}
	if region != "" {
		r := region
		in.Region = &r
	}
	return in
}
