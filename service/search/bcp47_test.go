package search

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"golang.org/x/text/language"
)

// The small parser agrees with golang.org/x/text/language, the full BCP
// 47 implementation, on every language we serve.
func TestLanguageOfAgreesWithXText(t *testing.T) {
	tags := []string{"en", "EN-us", "en_GB", "pt-BR", "zh-Hans", "zh-hant-TW", "zh-Hans-CN", "es-419", "ar-EG",
		"fr-CA", "bn-IN", "ru-RU", "id-ID", "in", "tr-TR", "hi-Latn", "eng", "zho", "spa", "fra", "por", "rus", "ind",
		"tur", "ara", "ben", "hin", "cmn", "ar-arb", "de", "de-DE", "x-private", "en-", "-en", "en--us", "e", "english!",
		"en-verylongsubtag", "1en", "", "en US", "zh-yue", "ja"}
	for _, tag := range tags {
		got, ok := languageOf(tag)
		want := ""
		if tt, err := language.Parse(tag); err == nil {
			if base, conf := tt.Base(); conf != language.No {
				want = base.String()
			}
		}
		served := func(l string) bool {
			for _, s := range Locales {
				if s == l {
					return true
				}
			}
			return false
		}
		if served(want) || served(got) {
			assert.True(t, ok, tag)
			assert.Equal(t, want, got, tag)
		}
	}
}

// historic lists the codes x/text still reads as countries that ISO 3166-1
// no longer assigns (withdrawn or only reserved): not real regions today.
const historic = "AC AN BU CP CQ CS CT DD DG DY EA EZ FQ FX HV IC JT MI NH NQ NT PC PU PZ RH SU TA TP UK UN VD WK YD YU ZR"

// Every two-letter code: a country for our table exactly when it is one
// for x/text, apart from XK (which CLDR uses and we accept) and the
// historic codes.
func TestParseRegionAgreesWithXText(t *testing.T) {
	for a := 'A'; a <= 'Z'; a++ {
		for b := 'A'; b <= 'Z'; b++ {
			code := string([]rune{a, b})
			_, got := ParseRegion(code)
			r, err := language.ParseRegion(code)
			want := err == nil && r.IsCountry() && r.String() == code
			if code == "XK" {
				want = true
			}
			if strings.Contains(historic, code) {
				want = false
			}
			assert.Equal(t, want, got, code)
		}
	}
	r, ok := ParseRegion("mx")
	assert.True(t, ok)
	assert.Equal(t, "MX", r)
}
