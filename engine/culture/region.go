package culture

import (
	"fmt"
	"strings"
)

// iso3166 lists the 249 officially assigned ISO 3166-1 alpha-2 codes.
const iso3166 = "" +
	"AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ " +
	"BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ " +
	"CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ " +
	"DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR " +
	"GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY " +
	"HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP " +
	"KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY " +
	"MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ " +
	"NA NC NE NF NG NI NL NO NP NR NU NZ OM " +
	"PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW " +
	"SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ " +
	"TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ " +
	"UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW"

var regions = func() map[string]bool {
	m := map[string]bool{}
	for _, c := range strings.Fields(iso3166) {
		m[c] = true
	}
	return m
}()

// IsRegion reports whether code is an assigned ISO 3166-1 alpha-2 code (upper case).
func IsRegion(code string) bool { return regions[code] }

// ParseRegion validates a `region` parameter, case-insensitively, and returns
// it in upper case. "" stays "" (no region).
func ParseRegion(value string) (string, error) {
	if value == "" {
		return "", nil
	}
	up := strings.ToUpper(value)
	if !regions[up] {
		return "", fmt.Errorf("%w: %q", ErrRegion, value)
	}
	return up, nil
}

// RegionOf returns the region subtag of a BCP 47 language tag, upper case,
// or "" when the tag has no ISO 3166-1 alpha-2 region (spec 3 regionOf).
//
//	RegionOf("pt-BR") == "BR"; RegionOf("zh-Hant-TW") == "TW"; RegionOf("en") == ""; RegionOf("es-419") == ""
func RegionOf(tag string) string {
	parts := strings.FieldsFunc(tag, func(r rune) bool { return r == '-' || r == '_' })
	for i, p := range parts {
		if i == 0 {
			continue
		}
		if len(p) == 1 { // extension or private use singleton: no region after it
			return ""
		}
		if len(p) == 2 {
			up := strings.ToUpper(p)
			if regions[up] {
				return up
			}
			return ""
		}
	}
	return ""
}

// ParseFlag reads the `culture` parameter (rule 1: off by default):
// "1" and "true" turn culture on; "", "0", "false" and "none" keep it off;
// anything else is ErrFlag (a 400).
func ParseFlag(value string) (bool, error) {
	switch value {
	case "1", "true":
		return true, nil
	case "", "0", "false", "none":
		return false, nil
	}
	return false, fmt.Errorf("%w, not %q", ErrFlag, value)
}
