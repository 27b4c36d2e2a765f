package classify

import (
	"encoding/json"
	"strings"
	"unicode"

	"github.com/emojisearch/emojisearch/engine/reactions"
)

// Label is what the vision model says about an image, cleaned: what the
// label cache holds and the response shows.
type Label struct {
	Caption  string
	Reaction string
	Keywords []string // 3 to 6 when the model gave enough words
	Emoji    []string // at most 8, as proposed (not yet checked against the catalog)
}

// Field bounds of a label.
const (
	maxCaption  = 200
	maxReaction = 80
	maxKeyword  = 32
	minKeywords = 3
	maxKeywords = 6
	maxEmoji    = 8
)

// ParseLabel reads the model's answer tolerantly: the JSON object the
// prompt asks for, also inside code fences or chatty text around it, with
// fields of the wrong kind (a keyword string instead of a list, emoji in
// one string); failing that, "Caption: ..." style lines. ok is false when
// nothing usable is found; the answer then degrades, it never fails.
func ParseLabel(answer string) (l Label, ok bool) {
	fields := map[string]any{}
	if i := strings.IndexByte(answer, '{'); i >= 0 {
		dec := json.NewDecoder(strings.NewReader(answer[i:]))
		if dec.Decode(&fields) != nil {
			fields = map[string]any{}
			if j := strings.LastIndexByte(answer, '}'); j > i {
				_ = json.Unmarshal([]byte(answer[i:j+1]), &fields)
			}
		}
	}
	if len(fields) == 0 {
		fields = lines(answer)
	}
	get := func(names ...string) any {
		for k, v := range fields {
			for _, n := range names {
				if strings.EqualFold(strings.TrimSpace(k), n) {
					return v
				}
			}
		}
		return nil
	}
	l.Caption = clean(text(get("caption", "description")), maxCaption)
	l.Reaction = clean(text(get("reaction", "reply")), maxReaction)
	for _, k := range list(get("keywords", "tags", "keyword")) {
		l.Keywords = addKeyword(l.Keywords, k)
	}
	// Too few keywords: the caption's content words complete them.
	for _, w := range strings.FieldsFunc(strings.ToLower(l.Caption), func(r rune) bool { return !unicode.IsLetter(r) }) {
		if len(l.Keywords) >= minKeywords {
			break
		}
		if len(w) >= 3 && !stop[w] {
			l.Keywords = addKeyword(l.Keywords, w)
		}
	}
	seen := map[string]bool{}
	for _, s := range list(get("emoji", "emojis")) {
		for _, e := range reactions.EmojiIn(s) {
			if k := reactions.Key(e); !seen[k] && len(l.Emoji) < maxEmoji {
				seen[k] = true
				l.Emoji = append(l.Emoji, e)
			}
		}
	}
	return l, l.Caption != "" || len(l.Keywords) > 0 || len(l.Emoji) > 0
}

func addKeyword(ks []string, k string) []string {
	k = clean(strings.ToLower(strings.Trim(k, " \t\"'#.-")), maxKeyword)
	if k == "" || len(ks) >= maxKeywords {
		return ks
	}
	for _, x := range ks {
		if x == k {
			return ks
		}
	}
	return append(ks, k)
}

// lines reads "Name: value" lines of a chatty answer.
func lines(answer string) map[string]any {
	out := map[string]any{}
	for _, ln := range strings.Split(answer, "\n") {
		ln = strings.TrimLeft(strings.TrimSpace(ln), "-*# ")
		name, value, found := strings.Cut(ln, ":")
		if !found {
			continue
		}
		name = strings.Trim(strings.TrimSpace(name), "*")
		if _, dup := out[name]; !dup {
			out[name] = strings.TrimSpace(value)
		}
	}
	return out
}

// text reads a string field (a list is joined).
func text(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case []any:
		return strings.Join(list(x), " ")
	}
	return ""
}

// list reads a list field: a JSON list of strings, or one string
// separated by commas (or spaces, for emoji).
func list(v any) []string {
	switch x := v.(type) {
	case []any:
		var out []string
		for _, e := range x {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
		return out
	case string:
		return strings.FieldsFunc(x, func(r rune) bool { return r == ',' || r == ';' || r == '\n' })
	}
	return nil
}

// clean collapses white space, drops control characters and cuts to n
// characters.
func clean(s string, n int) string {
	var b strings.Builder
	count, space := 0, false
	for _, r := range strings.TrimSpace(s) {
		if count == n {
			break
		}
		if unicode.IsSpace(r) || unicode.IsControl(r) {
			space = true
			continue
		}
		if space && b.Len() > 0 {
			if count+2 > n {
				break // no room for the space and a character after it
			}
			b.WriteByte(' ')
			count++
		}
		space = false
		b.WriteRune(r)
		count++
	}
	return b.String()
}

// stop are English words too empty to be keywords.
var stop = map[string]bool{"the": true, "and": true, "with": true, "from": true, "that": true, "this": true,
	"its": true, "his": true, "her": true, "their": true, "are": true, "for": true, "has": true, "have": true,
	"image": true, "picture": true, "photo": true, "shows": true, "showing": true, "there": true, "which": true,
	"into": true, "onto": true, "over": true, "under": true, "some": true, "very": true, "while": true}
