package cron

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func at(s string) time.Time {
	t, err := time.Parse("2006-01-02 15:04", s)
	if err != nil {
		panic(err)
	}
	return t
}

func TestParseRejects(t *testing.T) {
	cases := []struct {
		name, expr, field string
	}{
		{"empty", "", ""},
		{"four fields", "* * * *", ""},
		{"six fields (seconds)", "0 * * * * *", ""},
		{"minute too big", "60 * * * *", "minute"},
		{"hour too big", "* 24 * * *", "hour"},
		{"day 0", "* * 0 * *", "day of month"},
		{"day 32", "* * 32 * *", "day of month"},
		{"month 13", "* * * 13 *", "month"},
		{"month 0", "* * * 0 *", "month"},
		{"weekday 0 is not Sunday here", "* * * * 0", "day of week"},
		{"weekday 8", "* * * * 8", "day of week"},
		{"step 0", "*/0 * * * *", "minute"},
		{"step wider than field", "*/60 * * * *", "minute"},
		{"weekday step 7", "* * * * */7", "day of week"},
		{"month step 12", "* * * */12 *", "month"},
		{"star then list", "*,5 * * * *", "minute"},
		{"star then range", "*-5 * * * *", "minute"},
		{"trailing comma", "5, * * * *", "minute"},
		{"missing range end", "5- * * * *", "minute"},
		{"missing step", "5/ * * * *", "minute"},
		{"question mark", "* * ? * *", "day of month"},
		{"lower-case l", "* * l * *", "day of month"},
		{"W with list", "* * 5W,6 * *", "day of month"},
		{"L offset 31", "* * L-31 * *", "day of month"},
		{"L garbage", "* * LX * *", "day of month"},
		{"nth 6", "* * * * MON#6", "day of week"},
		{"nth 0", "* * * * 2#0", "day of week"},
		{"nL in list", "* * * * 5L,6", "day of week"},
		{"weekday name typo", "* * * * MOO", "day of week"},
		{"month full name", "* * * January *", "month"},
		{"name in minutes", "MON * * * *", "minute"},
		{"huge number", "99999 * * * *", "minute"},
		{"negative", "-5 * * * *", "minute"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse(tc.expr)
			require.Error(t, err)
			assert.True(t, errors.Is(err, ErrInvalid))
			var pe *ParseError
			require.ErrorAs(t, err, &pe)
			assert.Equal(t, tc.field, pe.Field)
			assert.Contains(t, err.Error(), "cron: ")
		})
	}
}

func TestNext(t *testing.T) {
	cases := []struct {
		name, expr, after string
		want              []string // successive fire times
	}{
		{"every minute", "* * * * *", "2026-01-01 10:00", []string{"2026-01-01 10:01", "2026-01-01 10:02"}},
		{"every 30 minutes", "*/30 * * * *", "2026-01-01 10:05", []string{"2026-01-01 10:30", "2026-01-01 11:00"}},
		{"45th minute", "45 * * * *", "2026-01-01 10:45", []string{"2026-01-01 11:45"}},
		{"list and range", "0,15-17 9 * * *", "2026-03-02 08:00", []string{"2026-03-02 09:00", "2026-03-02 09:15", "2026-03-02 09:16", "2026-03-02 09:17", "2026-03-03 09:00"}},
		{"stepped range", "10-30/10 * * * *", "2026-03-02 08:00", []string{"2026-03-02 08:10", "2026-03-02 08:20", "2026-03-02 08:30", "2026-03-02 09:10"}},
		{"start/step runs to the end", "50/5 * * * *", "2026-03-02 08:00", []string{"2026-03-02 08:50", "2026-03-02 08:55", "2026-03-02 09:50"}},
		{"sunday is 1", "0 17 * * 1", "2026-03-02 00:00", []string{"2026-03-08 17:00"}},
		{"sunday by name", "0 17 * * sun", "2026-03-02 00:00", []string{"2026-03-08 17:00"}},
		{"weekdays by name", "10 7 * * mon-fri", "2026-03-06 08:00", []string{"2026-03-09 07:10"}},
		{"weekdays by number", "10 7 * * 2-6", "2026-03-06 08:00", []string{"2026-03-09 07:10"}},
		{"first of month", "0 15 1 * *", "2026-01-15 00:00", []string{"2026-02-01 15:00", "2026-03-01 15:00"}},
		{"last friday", "0 18 * * 6L", "2026-03-01 00:00", []string{"2026-03-27 18:00", "2026-04-24 18:00"}},
		{"last friday by name", "0 18 * * friL", "2026-03-01 00:00", []string{"2026-03-27 18:00"}},
		{"last weekday of month", "59 23 LW * *", "2026-01-01 00:00", []string{"2026-01-30 23:59", "2026-02-27 23:59", "2026-03-31 23:59"}},
		{"last day", "0 0 L * *", "2026-02-01 00:00", []string{"2026-02-28 00:00", "2026-03-31 00:00", "2026-04-30 00:00"}},
		{"last day leap year", "0 0 L FEB *", "2028-01-01 00:00", []string{"2028-02-29 00:00", "2029-02-28 00:00"}},
		{"L-1", "0 0 L-1 FEB *", "2024-01-01 00:00", []string{"2024-02-28 00:00", "2025-02-27 00:00"}},
		{"nearest weekday of the 15th (Sunday)", "0 9 15W * *", "2026-03-01 00:00", []string{"2026-03-16 09:00"}},
		{"nearest weekday of the 1st (Saturday) stays in month", "0 9 1W * *", "2026-07-20 00:00", []string{"2026-08-03 09:00"}},
		{"nearest weekday of the 31st (Sunday) stays in month", "0 9 31W * *", "2026-05-01 00:00", []string{"2026-05-29 09:00"}},
		{"31W skips short months", "0 9 31W * *", "2026-06-01 00:00", []string{"2026-07-31 09:00"}},
		{"L-30W from saffron's tests", "0 0 L-30W * *", "2021-04-30 00:00", []string{"2021-05-03 00:00"}},
		{"second monday", "0 10 * * MON#2", "2026-03-01 00:00", []string{"2026-03-09 10:00", "2026-04-13 10:00"}},
		{"fifth friday skips months without one", "0 0 * * 6#5", "2026-02-01 00:00", []string{"2026-05-29 00:00"}},
		{"lone L in weekdays is saturday", "0 0 * * L", "2026-03-02 00:00", []string{"2026-03-07 00:00"}},
		{"both day fields restricted: either matches", "0 0 13 * FRI", "2026-02-01 00:00", []string{"2026-02-06 00:00", "2026-02-13 00:00", "2026-02-20 00:00"}},
		{"*/1 counts as restricted", "0 0 13 * */1", "2026-02-01 00:00", []string{"2026-02-02 00:00"}},
		{"weekday step from sunday: sun wed sat", "0 0 * * */3", "2026-03-01 00:00", []string{"2026-03-04 00:00", "2026-03-07 00:00", "2026-03-08 00:00"}},
		{"wrapping weekday range", "0 0 * JAN SAT-SUN", "2020-01-01 00:00", []string{"2020-01-04 00:00", "2020-01-05 00:00", "2020-01-11 00:00"}},
		{"wrapping hours", "0 22-1 * * *", "2026-03-02 12:00", []string{"2026-03-02 22:00", "2026-03-02 23:00", "2026-03-03 00:00", "2026-03-03 01:00", "2026-03-03 22:00"}},
		{"wrapping everything from saffron's tests", "59-0 23-0 31-1 12-1 *", "2020-12-30 00:00", []string{"2020-12-31 00:00", "2020-12-31 00:59", "2020-12-31 23:00", "2020-12-31 23:59", "2021-01-01 00:00"}},
		{"month names and year rollover", "0 0 1 dec-jan *", "2026-06-01 00:00", []string{"2026-12-01 00:00", "2027-01-01 00:00", "2027-12-01 00:00"}},
		{"29 february", "0 0 29 2 *", "2097-01-01 00:00", []string{"2104-02-29 00:00"}},
		{"seconds are dropped from after", "* * * * *", "2026-01-01 10:00", []string{"2026-01-01 10:01"}},
		{"tabs and extra spaces", "  0\t0   1 1 *  ", "2026-06-01 00:00", []string{"2027-01-01 00:00"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Parse(tc.expr)
			require.NoError(t, err)
			cur := at(tc.after)
			for _, w := range tc.want {
				next := s.Next(cur)
				require.Equal(t, at(w), next, "after %s", cur)
				assert.True(t, s.Matches(next))
				cur = next
			}
		})
	}
}

func TestNextNever(t *testing.T) {
	for _, expr := range []string{"0 0 31 11 *", "0 0 30 2 *", "0 0 L-30 2 *"} {
		t.Run(expr, func(t *testing.T) {
			s, err := Parse(expr)
			require.NoError(t, err)
			assert.True(t, s.Next(at("2026-01-01 00:00")).IsZero())
		})
	}
	assert.True(t, Schedule{}.Next(time.Now()).IsZero(), "the zero Schedule never fires")
	assert.False(t, Schedule{}.Matches(time.Now()))
}

func TestNextIsStrictlyAfterAndUTC(t *testing.T) {
	s, err := Parse("0 12 * * *")
	require.NoError(t, err)
	loc := time.FixedZone("UTC+2", 2*3600)
	after := time.Date(2026, 5, 1, 14, 0, 30, 0, loc) // 12:00:30 UTC
	next := s.Next(after)
	assert.Equal(t, time.Date(2026, 5, 2, 12, 0, 0, 0, time.UTC), next)
	assert.Equal(t, time.UTC, next.Location())
}

func TestString(t *testing.T) {
	s, err := Parse(" */5  *\t* * * ")
	require.NoError(t, err)
	assert.Equal(t, "*/5 * * * *", s.String())
}

func TestMatches(t *testing.T) {
	s, err := Parse("*/10 0 * OCT MON")
	require.NoError(t, err)
	assert.True(t, s.Matches(at("2020-10-19 00:30")))
	assert.False(t, s.Matches(at("2020-10-19 00:31")))
	assert.False(t, s.Matches(at("2020-10-20 00:30")))
}

// TestNextAgainstBruteForce checks Next against a minute-by-minute scan.
func TestNextAgainstBruteForce(t *testing.T) {
	exprs := []string{"7 */5 * * *", "0 0 L-3W * *", "30 6 * * 2#3", "15 3 10-12 * 1L", "0 0 * * 7-2/2", "0 12 LW * FRI"}
	start := at("2026-01-01 00:00")
	for _, expr := range exprs {
		t.Run(expr, func(t *testing.T) {
			s, err := Parse(expr)
			require.NoError(t, err)
			cur := start
			for i := 0; i < 20; i++ {
				want := cur.Add(time.Minute)
				for !s.Matches(want) {
					want = want.Add(time.Minute)
				}
				got := s.Next(cur)
				require.Equal(t, want, got)
				cur = got
			}
		})
	}
}
