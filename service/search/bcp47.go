package search

import (
	"strings"

	"github.com/emojisearch/emojisearch/engine/packfmt"
)

// languageAliases maps the ISO 639-2/3 codes and deprecated tags of our
// languages to their two-letter codes (packfmt.Registry).
var languageAliases = packfmt.LanguageAliases()

// languageOf returns the primary language of a well-formed BCP 47 tag
// (RFC 5646: subtags of 1 to 8 letters or digits separated by '-', or '_'
// as many clients send; the first one 2 to 3 letters), lower-cased and
// canonical; false for anything else.
func languageOf(tag string) (string, bool) {
	subtags := strings.FieldsFunc(tag, func(r rune) bool { return r == '-' || r == '_' })
	if len(subtags) == 0 || strings.Count(tag, "-")+strings.Count(tag, "_") != len(subtags)-1 {
		return "", false
	}
	for _, s := range subtags {
		if len(s) > 8 || !alnum(s) {
			return "", false
		}
	}
	lang := strings.ToLower(subtags[0])
	if len(lang) < 2 || len(lang) > 3 || !letters(lang) {
		return "", false
	}
	// An extended language subtag (zh-yue) names the language.
	if len(subtags) > 1 && len(subtags[1]) == 3 && letters(subtags[1]) {
		lang = strings.ToLower(subtags[1])
	}
	if canonical, ok := languageAliases[lang]; ok {
		lang = canonical
	}
	return lang, true
}

func alnum(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i] | 0x20
		if !(c >= 'a' && c <= 'z') && !(s[i] >= '0' && s[i] <= '9') {
			return false
		}
	}
	return true
}

func letters(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i] | 0x20; c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}

// countries are the officially assigned ISO 3166-1 alpha-2 codes, plus XK
// (Kosovo), which CLDR and our culture files use.
const countries = "AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ " +
	"CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR " +
	"GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP " +
	"KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT " +
	"MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW " +
	"SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG " +
	"UM US UY UZ VA VC VE VG VI VN VU WF WS XK YE YT ZA ZM ZW"

// ParseRegion accepts a two-letter region code of a real country or
// territory (ISO 3166-1 alpha-2), case-insensitively, and returns it
// upper-case.
func ParseRegion(s string) (string, bool) {
	if len(s) != 2 || !letters(s) {
		return "", false
	}
	r := strings.ToUpper(s)
	for i := 0; i+2 <= len(countries); i += 3 {
		if countries[i:i+2] == r {
			return r, true
		}
	}
	return "", false
}
