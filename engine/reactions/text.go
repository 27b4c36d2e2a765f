package reactions

import (
	"strings"
	"unicode/utf8"

	"github.com/emojisearch/emojisearch/engine"
)

// MaxClauses bounds the alias searches of one message (one per clause).
const MaxClauses = 4

// Clauses splits a message at sentence and clause punctuation and at line
// breaks, for the alias search per clause: "got the job!! so happy" gives
// "got the job" and "so happy", so neither clause's words dilute the
// other's. At most MaxClauses non-empty clauses, each trimmed.
func Clauses(text string) []string {
	var out []string
	start := 0
	flush := func(end int) {
		if c := strings.TrimSpace(text[start:end]); c != "" && len(out) < MaxClauses && hasLetter(c) {
			out = append(out, c)
		}
	}
	for i, r := range text {
		switch r {
		case '.', '!', '?', ';', ',', '\n', '…', '。', '！', '？', '，', '؟', '،', '।':
			flush(i)
			start = i + utf8.RuneLen(r)
		}
	}
	flush(len(text))
	return out
}

func hasLetter(s string) bool {
	return engine.Normalize(s, 0) != ""
}

// EmojiIn returns the emoji sequences of a text in order of appearance,
// without skin tones (a reaction is offered in its base form; clients apply
// the user's tone) and without repeats.
func EmojiIn(text string) []string {
	var out []string
	seen := map[string]bool{}
	rs := []rune(text)
	for i := 0; i < len(rs); {
		if !emojiStart(rs[i]) {
			i++
			continue
		}
		var b strings.Builder
		j := i
		if isRegional(rs[j]) { // flags are pairs
			b.WriteRune(rs[j])
			j++
			if j < len(rs) && isRegional(rs[j]) {
				b.WriteRune(rs[j])
				j++
			}
		} else {
			b.WriteRune(rs[j])
			j++
			for j < len(rs) {
				r := rs[j]
				switch {
				case r == 0xFE0F || r == 0x20E3 || (r >= 0xE0020 && r <= 0xE007F):
					b.WriteRune(r)
					j++
					continue
				case r >= 0x1F3FB && r <= 0x1F3FF: // skin tone: dropped
					j++
					continue
				case r == 0x200D && j+1 < len(rs) && emojiStart(rs[j+1]):
					b.WriteRune(r)
					b.WriteRune(rs[j+1])
					j += 2
					continue
				}
				break
			}
		}
		e := b.String()
		if k := key(e); !seen[k] && k != "" {
			seen[k] = true
			out = append(out, e)
		}
		i = j
	}
	return out
}

// emojiStart reports code points that begin an emoji sequence: the emoji
// blocks of the supplementary plane, dingbats and miscellaneous symbols,
// and the few older symbols chat apps draw as emoji.
func emojiStart(r rune) bool {
	switch {
	case r >= 0x1F000 && r <= 0x1FAFF:
		return !(r >= 0x1F3FB && r <= 0x1F3FF)
	case r >= 0x2600 && r <= 0x27BF, r >= 0x2B00 && r <= 0x2BFF, r >= 0x2300 && r <= 0x23FF:
		return true
	case r == 0x203C, r == 0x2049, r == 0x2122, r == 0x2139, r == 0x3030, r == 0x303D, r == 0x3297, r == 0x3299:
		return true
	}
	return false
}

func isRegional(r rune) bool { return r >= 0x1F1E6 && r <= 0x1F1FF }

// key compares emoji across spellings: without U+FE0F and skin tones (the
// evaluation sets and vendors differ in both).
func key(e string) string {
	var b strings.Builder
	for _, r := range e {
		if r == 0xFE0F || (r >= 0x1F3FB && r <= 0x1F3FF) {
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Key is key for callers: compare emoji without U+FE0F and skin tones.
func Key(e string) string { return key(e) }

// squeeze shortens runs of three or more equal letters to n ("happyyy"
// with n=1 is "happy", "sooo" with n=2 is "soo"); shorter runs stay, so
// "good" is still "good". Stretched chat words then match their cue.
func squeeze(s string, n int) string {
	rs := []rune(s)
	var b strings.Builder
	for i := 0; i < len(rs); {
		j := i
		for j < len(rs) && rs[j] == rs[i] {
			j++
		}
		cnt := j - i
		if cnt >= 3 {
			cnt = n
		}
		for k := 0; k < cnt; k++ {
			b.WriteRune(rs[i])
		}
		i = j
	}
	return b.String()
}
