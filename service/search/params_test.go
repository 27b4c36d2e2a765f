package search

import (
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseParams(t *testing.T) {
	cases := []struct {
		name  string
		query string
		want  Params
		param string // the parameter a 400 names
	}{
		{"defaults", "q=cat", Params{Query: "cat", Locale: "en", Limit: 24, Mode: Hybrid}, ""},
		{"missing q", "locale=en", Params{}, "q"},
		{"empty q", "q=", Params{}, "q"},
		{"whitespace q", "q=%20%20", Params{}, "q"},
		{"emoji-only q", "q=%F0%9F%98%82", Params{Query: "😂", Locale: "en", Limit: 24, Mode: Hybrid}, ""},
		{"q cut to 64 characters", "q=" + strings.Repeat("é", 70), Params{Query: strings.Repeat("é", 64), Locale: "en", Limit: 24, Mode: Hybrid}, ""},
		{"bcp47 locale", "q=a&locale=pt-BR", Params{Query: "a", Locale: "pt", Limit: 24, Mode: Hybrid}, ""},
		{"case-insensitive locale", "q=a&locale=EN-us", Params{Query: "a", Locale: "en", Limit: 24, Mode: Hybrid}, ""},
		{"zh-Hant is zh", "q=a&locale=zh-Hant", Params{Query: "a", Locale: "zh", Limit: 24, Mode: Hybrid}, ""},
		{"zh-Hans is zh", "q=a&locale=zh-hans-cn", Params{Query: "a", Locale: "zh", Limit: 24, Mode: Hybrid}, ""},
		{"empty locale is en", "q=a&locale=", Params{Query: "a", Locale: "en", Limit: 24, Mode: Hybrid}, ""},
		{"unsupported language", "q=a&locale=de", Params{}, "locale"},
		{"not a tag", "q=a&locale=english!", Params{}, "locale"},
		{"limit", "q=a&limit=50", Params{Query: "a", Locale: "en", Limit: 50, Mode: Hybrid}, ""},
		{"limit 0", "q=a&limit=0", Params{}, "limit"},
		{"limit 51", "q=a&limit=51", Params{}, "limit"},
		{"limit text", "q=a&limit=ten", Params{}, "limit"},
		{"limit float", "q=a&limit=2.5", Params{}, "limit"},
		{"semantic", "q=a&mode=semantic", Params{Query: "a", Locale: "en", Limit: 24, Mode: Semantic}, ""},
		{"bad mode", "q=a&mode=fast", Params{}, "mode"},
		{"culture 1", "q=a&culture=1", Params{Query: "a", Locale: "en", Limit: 24, Mode: Hybrid, Culture: true}, ""},
		{"culture true", "q=a&culture=TRUE", Params{Query: "a", Locale: "en", Limit: 24, Mode: Hybrid, Culture: true}, ""},
		{"culture none", "q=a&culture=none", Params{Query: "a", Locale: "en", Limit: 24, Mode: Hybrid}, ""},
		{"culture false", "q=a&culture=false", Params{Query: "a", Locale: "en", Limit: 24, Mode: Hybrid}, ""},
		{"culture other", "q=a&culture=yes", Params{}, "culture"},
		{"region", "q=a&culture=1&region=mx", Params{Query: "a", Locale: "en", Limit: 24, Mode: Hybrid, Culture: true, Region: "MX"}, ""},
		{"region not real", "q=a&region=ZZ", Params{}, "region"},
		{"region too long", "q=a&region=USA", Params{}, "region"},
		{"region numeric", "q=a&region=419", Params{}, "region"},
		{"region macro", "q=a&region=EU", Params{}, "region"},
		{"tenant 128", "q=a&tenant=" + strings.Repeat("t", 128), Params{Query: "a", Locale: "en", Limit: 24, Mode: Hybrid, Tenant: strings.Repeat("t", 128)}, ""},
		{"tenant 129", "q=a&tenant=" + strings.Repeat("t", 129), Params{}, "tenant"},
		{"key and pack kept", "q=a&key=pk_live_x&pack=e17c48r1", Params{Query: "a", Locale: "en", Limit: 24, Mode: Hybrid, Key: "pk_live_x", Pack: "e17c48r1"}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v, err := url.ParseQuery(tc.query)
			require.NoError(t, err)
			got, err := ParseParams(v)
			if tc.param != "" {
				var pe *ParamError
				require.ErrorAs(t, err, &pe)
				assert.Equal(t, tc.param, pe.Param)
				assert.NotEmpty(t, pe.Message)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestUnknownLocaleNamesTheSupportedOnes(t *testing.T) {
	_, err := ResolveLocale("de-DE")
	require.Error(t, err)
	for _, l := range Locales {
		assert.Contains(t, err.Error(), l)
	}
	assert.Contains(t, err.Error(), `"de-DE"`)
}
