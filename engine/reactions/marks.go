package reactions

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Marks are the cues every language shares, read from the text as typed
// (the word cues see it normalized, without punctuation): a surprised
// "?!", an emphatic "!!", a question, and the text emoticons. Written by
// hand from chat usage, not fitted on any data set. A mark names a mood
// more weakly than a word does, so each counts markWeight of a word cue.
var emoticons = []struct {
	intent Intent
	marks  []string
}{
	{Joy, []string{":)", ":-)", "=)", ":]", "^^", "^_^", "(:", ":d", ":-d", "=d"}},
	{Sadness, []string{":(", ":-(", ":'(", ":’(", "t_t", ";_;", ")':"}},
	{Love, []string{"<3", "♥"}},
	{Surprise, []string{":o", ":-o", "o_o", "o.o", "o_0", "0_0"}},
	{Anger, []string{">:(", ">:-("}},
}

// emoticonRunes holds a rune of every emoticon: a text without any has none.
const emoticonRunes = ":;=^<_.♥"

const (
	markWeight     = 0.7 // an emoticon, "?!" or "!!"
	questionWeight = 0.5 // a message that ends with a question mark
)

// markCues finds the marks of a message.
func markCues(text string) []CueHit {
	var hits []CueHit
	lower := ""
	if strings.ContainsAny(text, emoticonRunes) { // most messages have none: no lower-casing, no searches
		lower = strings.ToLower(text)
	}
	for _, e := range emoticons {
		for _, m := range e.marks {
			if lower != "" && hasMark(lower, m) {
				hits = append(hits, CueHit{Intent: e.intent, Weight: markWeight, Cue: m})
				break
			}
		}
	}
	switch {
	case containsAny(text, "?!", "!?", "？！", "！？", "؟!", "!؟"):
		hits = append(hits, CueHit{Intent: Surprise, Weight: markWeight, Cue: "?!"})
	case containsAny(text, "!!", "！！"):
		hits = append(hits, CueHit{Intent: Surprise, Weight: markWeight * 0.8, Cue: "!!"})
	}
	trimmed := strings.TrimRightFunc(text, func(r rune) bool { return unicode.IsSpace(r) || r == '"' || r == '»' || r == '!' })
	if last, _ := utf8.DecodeLastRuneInString(trimmed); last == '?' || last == '？' || last == '؟' {
		hits = append(hits, CueHit{Intent: Question, Weight: questionWeight, Cue: "?"})
	}
	return hits
}

func containsAny(text string, subs ...string) bool {
	for _, s := range subs {
		if strings.Contains(text, s) {
			return true
		}
	}
	return false
}

// hasMark reports whether an emoticon stands in the text on its own: an
// end of it that is a letter or digit must not touch another ("t_t" not
// in "at_time", ":d" not in "re:do", ":o" not in "http:or"), while a
// punctuation end may ("nice:)").
func hasMark(text, m string) bool {
	for from := 0; ; {
		i := strings.Index(text[from:], m)
		if i < 0 {
			return false
		}
		i += from
		end := i + len(m)
		before := i == 0 || !isWordByte(m[0]) || !isWordByte(text[i-1])
		after := end == len(text) || !isWordByte(m[len(m)-1]) || !isWordByte(text[end])
		if before && after {
			return true
		}
		from = i + 1
	}
}

func isWordByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= '0' && b <= '9' || b == '/' || b == '_'
}
