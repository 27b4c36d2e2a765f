package culture

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/emojisearch/emojisearch/engine"
	"github.com/emojisearch/emojisearch/engine/packfmt"
)

var kinds = map[string]bool{KindLasting: true, KindSeasonal: true, KindEvent: true, KindRegional: true}

// Parse decodes a culture file and checks it with Assert (spec 3 loadCulture).
func Parse(data []byte) (*File, error) {
	var f File
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrFormat, err)
	}
	if err := Assert(&f); err != nil {
		return nil, err
	}
	return &f, nil
}

// Assert validates a culture file (spec 3 assertCulture). A wrong format or
// format version is ErrFormat; every other problem is listed in one error
// that matches ErrInvalid.
func Assert(f *File) error {
	if f == nil {
		return fmt.Errorf("%w: nil", ErrFormat)
	}
	if f.Format != Format || f.FormatVersion != FormatVersion {
		return fmt.Errorf("%w: format %q version %d, want %q version %d", ErrFormat, f.Format, f.FormatVersion, Format, FormatVersion)
	}
	var errs []error
	bad := func(format string, args ...any) {
		errs = append(errs, fmt.Errorf("%w: "+format, append([]any{ErrInvalid}, args...)...))
	}
	if !slices.Contains(packfmt.Locales, f.Locale) {
		bad("locale %q is not one of %s", f.Locale, strings.Join(packfmt.Locales, " "))
	}
	if f.PackVersion == "" {
		bad("packVersion is empty")
	}
	_, errFrom := ParseDay(f.From)
	_, errTo := ParseDay(f.To)
	if errFrom != nil || errTo != nil || f.To < f.From {
		bad("from %q and to %q must be days with from <= to", f.From, f.To)
	}
	ids := map[string]bool{}
	for i, e := range f.Entries {
		name := fmt.Sprintf("entry %d %q", i, e.ID)
		if e.ID == "" || strings.ContainsAny(e.ID, " \t\n") {
			bad("%s: id must be non-empty without spaces", name)
		} else if ids[e.ID] {
			bad("%s: duplicate id", name)
		}
		ids[e.ID] = true
		if e.Emoji == "" {
			bad("%s: emoji is empty", name)
		} else if looseHex(e.Hexcode) != looseHex(engine.HexcodeOf(e.Emoji)) {
			bad("%s: hexcode %q does not name emoji %q", name, e.Hexcode, e.Emoji)
		}
		if !kinds[e.Kind] {
			bad("%s: kind %q must be lasting, seasonal, event or regional", name, e.Kind)
		}
		if math.IsNaN(e.Weight) || e.Weight < 0 || e.Weight > 1 {
			bad("%s: weight %v must be in 0..1", name, e.Weight)
		}
		if strings.TrimSpace(e.Context) == "" {
			bad("%s: context is empty", name)
		}
		if len(e.Triggers) == 0 {
			bad("%s: no triggers", name)
		}
		seen := map[string]bool{}
		for _, t := range e.Triggers {
			if t == "" || engine.Normalize(t, engine.MaxQueryLength) != t {
				bad("%s: trigger %q is not normalized (want %q)", name, t, engine.Normalize(t, engine.MaxQueryLength))
			} else if seen[t] {
				bad("%s: duplicate trigger %q", name, t)
			}
			seen[t] = true
		}
		switch e.Kind {
		case KindLasting:
			if len(e.Windows) > 0 || len(e.Regions) > 0 {
				bad("%s: a lasting entry has no windows and no regions", name)
			}
		case KindSeasonal, KindEvent:
			if len(e.Windows) == 0 {
				bad("%s: a %s entry needs windows", name, e.Kind)
			}
			if len(e.Regions) > 0 {
				bad("%s: only regional entries have regions", name)
			}
		case KindRegional:
			if len(e.Regions) == 0 {
				bad("%s: a regional entry needs a region scope", name)
			}
		}
		if len(e.Over) > 0 && e.Kind != KindRegional {
			bad("%s: only regional entries name answers to lead over", name)
		}
		for _, r := range e.Regions {
			if !IsRegion(r) {
				bad("%s: region %q is not an ISO 3166-1 alpha-2 code", name, r)
			}
		}
		for _, w := range e.Windows {
			_, e1 := ParseDay(w.From)
			_, e2 := ParseDay(w.To)
			switch {
			case e1 != nil || e2 != nil || w.To < w.From:
				bad("%s: window %s..%s must be days with from <= to", name, w.From, w.To)
			case w.From < f.From || w.To > f.To:
				bad("%s: window %s..%s is outside the file's %s..%s", name, w.From, w.To, f.From, f.To)
			}
		}
	}
	return errors.Join(errs...)
}

// looseHex spells a hexcode without U+FE0F, skin tones and leading zeros,
// so that emojibase's "0038-FE0F-20E3" and "38-20E3" compare equal.
func looseHex(h string) string {
	var parts []string
	for _, p := range strings.Split(engine.BaseID(h), "-") {
		if p = strings.TrimLeft(p, "0"); p != "" && p != "FE0F" {
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, "-")
}
