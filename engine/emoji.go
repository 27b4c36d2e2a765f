package engine

import (
	"fmt"
	"strconv"
	"strings"
)

// SkinTones is SKIN_TONES: tone 1..5 (light to dark) is the modifier at that
// index; index 0 is no tone.
var SkinTones = [6]string{"", "\U0001F3FB", "\U0001F3FC", "\U0001F3FD", "\U0001F3FE", "\U0001F3FF"}

// CommonReactions is COMMON_REACTIONS: the emoji most offered in reaction
// bars of chat apps (thumbs up, heart, laughing, surprise, sadness, anger,
// party, thanks, fire, eyes, clapping, thinking), for a reaction bar.
var CommonReactions = []string{"👍", "❤️", "😂", "😮", "😢", "😡", "🎉", "🙏", "🔥", "👀", "👏", "🤔"}

// HexcodeOf returns the emojibase hexcode of an emoji: code points in upper
// case hex joined by "-", skin tone included; U+FE0F is dropped when one code
// point remains (emojibase's rule).
//
//	HexcodeOf("👋🏽") == "1F44B-1F3FD"; HexcodeOf("❤️") == "2764"
func HexcodeOf(emoji string) string {
	parts := make([]string, 0, 4)
	for _, r := range emoji {
		parts = append(parts, fmt.Sprintf("%X", r))
	}
	if len(parts) == 2 && parts[1] == "FE0F" {
		parts = parts[:1]
	}
	return strings.Join(parts, "-")
}

// BaseID maps a skin-tone variant hexcode to its base hexcode: tone
// modifiers are removed, and the FE0F that emojibase writes after a
// text-default base in a sequence is restored.
//
//	BaseID("1F44B-1F3FD") == "1F44B"; BaseID("26F9-1F3FB-200D-2642-FE0F") == "26F9-FE0F-200D-2642-FE0F"
func BaseID(hexcode string) string {
	parts := strings.Split(strings.ToUpper(hexcode), "-")
	out := make([]string, 0, len(parts))
	for i, p := range parts {
		if isToneHex(p) {
			if i > 0 && i+1 < len(parts) && textDefaultBase[parts[i-1]] {
				out = append(out, "FE0F")
			}
			continue
		}
		out = append(out, p)
	}
	base := strings.Join(out, "-")
	if b, ok := multiPersonBase[base]; ok && len(out) < len(parts) {
		return b
	}
	return base
}

// multiPersonBase maps multi-person sequences, once their (possibly mixed)
// tones are removed, to the single emoji emojibase files them under.
var multiPersonBase = map[string]string{
	"1F469-200D-1F91D-200D-1F468": "1F46B", "1F468-200D-1F91D-200D-1F468": "1F46C", "1F469-200D-1F91D-200D-1F469": "1F46D",
	"1F9D1-200D-1F430-200D-1F9D1": "1F46F", "1F469-200D-1F430-200D-1F469": "1F46F-200D-2640-FE0F",
	"1F468-200D-1F430-200D-1F468": "1F46F-200D-2642-FE0F", "1F9D1-200D-2764-FE0F-200D-1F48B-200D-1F9D1": "1F48F",
	"1F9D1-200D-2764-FE0F-200D-1F9D1": "1F491", "1FAF1-200D-1FAF2": "1F91D", "1F9D1-200D-1FAEF-200D-1F9D1": "1F93C",
	"1F469-200D-1FAEF-200D-1F469": "1F93C-200D-2640-FE0F", "1F468-200D-1FAEF-200D-1F468": "1F93C-200D-2642-FE0F",
}

func isToneHex(p string) bool {
	return len(p) == 5 && strings.HasPrefix(p, "1F3F") && p[4] >= 'B' && p[4] <= 'F'
}

// textDefaultBase are the skin-tone bases without default emoji presentation:
// in a sequence their base form carries FE0F where the tone would go.
var textDefaultBase = map[string]bool{"261D": true, "26F9": true, "270C": true, "270D": true, "1F3CB": true, "1F3CC": true, "1F574": true, "1F575": true, "1F590": true}

// ApplySkinTone puts tone (1..5, SkinTones) on every skin-tone base of an
// emoji, replacing a tone it has; tone 0 removes tones. The result is only
// meaningful for emoji whose entry has skin tones.
func ApplySkinTone(emoji string, tone int) string {
	if tone < 0 || tone >= len(SkinTones) {
		return emoji
	}
	var b strings.Builder
	rs := []rune(emoji)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		if r >= 0x1F3FB && r <= 0x1F3FF {
			continue
		}
		b.WriteRune(r)
		if !modifierBase(r) || (i > 0 && rs[i-1] == 0x200D && !personLike(r)) {
			continue
		}
		if tone > 0 {
			b.WriteString(SkinTones[tone])
			if i+1 < len(rs) && rs[i+1] == 0xFE0F {
				i++ // the tone replaces the presentation selector
			}
		}
	}
	return b.String()
}

func personLike(r rune) bool {
	return r == 0x1F9D1 || r == 0x1F468 || r == 0x1F469 || r == 0x1FAF2 || r == 0x1FAF1
}

// emojiOfHex turns a hexcode into its character sequence.
func emojiOfHex(hex string) (string, bool) {
	var b strings.Builder
	for p := range strings.SplitSeq(hex, "-") {
		v, err := strconv.ParseUint(p, 16, 32)
		if err != nil || v > 0x10FFFF {
			return "", false
		}
		b.WriteRune(rune(v))
	}
	return b.String(), b.Len() > 0
}

// modifierBases are the code points that take a skin-tone modifier in
// emojibase 17 sequences (Emoji_Modifier_Base), as ranges.
var modifierBases = [][2]rune{
	{0x261D, 0x261D}, {0x26F9, 0x26F9}, {0x270A, 0x270D}, {0x1F385, 0x1F385}, {0x1F3C2, 0x1F3C4}, {0x1F3C7, 0x1F3C7},
	{0x1F3CA, 0x1F3CC}, {0x1F442, 0x1F443}, {0x1F446, 0x1F450}, {0x1F466, 0x1F469}, {0x1F46B, 0x1F478}, {0x1F47C, 0x1F47C},
	{0x1F481, 0x1F483}, {0x1F485, 0x1F487}, {0x1F48F, 0x1F48F}, {0x1F491, 0x1F491}, {0x1F4AA, 0x1F4AA}, {0x1F574, 0x1F575},
	{0x1F57A, 0x1F57A}, {0x1F590, 0x1F590}, {0x1F595, 0x1F596}, {0x1F645, 0x1F647}, {0x1F64B, 0x1F64F}, {0x1F6A3, 0x1F6A3},
	{0x1F6B4, 0x1F6B6}, {0x1F6C0, 0x1F6C0}, {0x1F6CC, 0x1F6CC}, {0x1F90C, 0x1F90C}, {0x1F90F, 0x1F90F}, {0x1F918, 0x1F91F},
	{0x1F926, 0x1F926}, {0x1F930, 0x1F939}, {0x1F93C, 0x1F93E}, {0x1F977, 0x1F977}, {0x1F9B5, 0x1F9B6}, {0x1F9B8, 0x1F9B9},
	{0x1F9BB, 0x1F9BB}, {0x1F9CD, 0x1F9CF}, {0x1F9D1, 0x1F9DD}, {0x1FAC3, 0x1FAC5}, {0x1FAF0, 0x1FAF8},
}

func modifierBase(r rune) bool {
	for _, rg := range modifierBases {
		if r >= rg[0] && r <= rg[1] {
			return true
		}
	}
	return false
}
