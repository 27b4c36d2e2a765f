// Package cron parses the cron expressions of Cloudflare Cron Triggers and
// computes when they fire next.
//
// The dialect is the one Cloudflare documents and implements in
// github.com/cloudflare/saffron, the parser behind Cron Triggers: five fields
// (minute hour day-of-month month day-of-week), always in UTC, with Quartz-like
// extensions:
//
//	minute        0-59   * , - /
//	hour          0-23   * , - /
//	day of month  1-31   * , - /  L  LW  L-n  L-nW  nW
//	month         1-12   * , - /  JAN-DEC (any case)
//	day of week   1-7    * , - /  L  nL  n#k     SUN-SAT (any case), 1 = Sunday
//
// Day of week counts from 1 = Sunday as in Quartz, so "0" is refused rather
// than read as Sunday the way Unix cron would. Ranges and steps wrap around
// ("FRI-MON", "22-2"). When both day fields are restricted a day matches if
// either matches, as in Vixie cron; a field counts as unrestricted only when it
// is exactly "*".
//
// Example:
//
//	s, err := cron.Parse("0 18 * * FRIL") // 18:00 UTC on the last Friday of the month
//	next := s.Next(time.Now())
package cron

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// ErrInvalid is matched (errors.Is) by every parse failure.
var ErrInvalid = errors.New("cron: invalid expression")

// ParseError says which field of which expression is wrong and why.
type ParseError struct {
	Expr  string // the expression as given
	Field string // "minute", "hour", "day of month", "month", "day of week", or "" for the whole
	Msg   string
}

func (e *ParseError) Error() string {
	if e.Field == "" {
		return fmt.Sprintf("cron: %q: %s", e.Expr, e.Msg)
	}
	return fmt.Sprintf("cron: %q: %s: %s", e.Expr, e.Field, e.Msg)
}

// Unwrap lets callers match any parse failure with errors.Is(err, ErrInvalid).
func (e *ParseError) Unwrap() error { return ErrInvalid }

// Schedule is a parsed cron expression. The zero value never fires.
type Schedule struct {
	expr    string
	minutes uint64 // bit i = minute i
	hours   uint32 // bit i = hour i
	months  uint16 // bit i = month i (1-12)
	dom     daySpec
	dow     weekSpec
}

type domKind uint8

const (
	domNone domKind = iota // zero Schedule
	domStar
	domSet         // bits of days 1-31
	domLast        // L or L-n (n in arg)
	domLastWeekday // LW or L-nW (n in arg)
	domNearest     // nW (n in arg)
)

type daySpec struct {
	kind domKind
	bits uint32
	arg  int
}

type dowKind uint8

const (
	dowNone dowKind = iota
	dowStar
	dowSet  // bits of weekdays 0 (Sunday) - 6
	dowLast // last <weekday> of the month
	dowNth  // <weekday>#<nth>
)

type weekSpec struct {
	kind    dowKind
	bits    uint8
	weekday time.Weekday
	nth     int
}

// Parse reads one Cron Trigger expression. Surrounding white space is ignored;
// fields are separated by spaces or tabs.
func Parse(expr string) (Schedule, error) {
	fields := strings.Fields(expr)
	if len(fields) != 5 {
		return Schedule{}, &ParseError{Expr: expr, Msg: fmt.Sprintf("want 5 fields (minute hour day-of-month month day-of-week), got %d", len(fields))}
	}
	s := Schedule{expr: strings.Join(fields, " ")}
	fail := func(field string, err error) (Schedule, error) {
		return Schedule{}, &ParseError{Expr: expr, Field: field, Msg: err.Error()}
	}
	m, err := parseSimple(fields[0], minuteField)
	if err != nil {
		return fail("minute", err)
	}
	h, err := parseSimple(fields[1], hourField)
	if err != nil {
		return fail("hour", err)
	}
	dom, err := parseDOM(fields[2])
	if err != nil {
		return fail("day of month", err)
	}
	mon, err := parseSimple(fields[3], monthField)
	if err != nil {
		return fail("month", err)
	}
	dow, err := parseDOW(fields[4])
	if err != nil {
		return fail("day of week", err)
	}
	s.minutes, s.hours, s.months, s.dom, s.dow = m, uint32(h), uint16(mon), dom, dow
	return s, nil
}

// String returns the expression with its fields joined by single spaces, the
// form a Worker sees as controller.cron when its wrangler.toml has no extra
// spaces.
func (s Schedule) String() string { return s.expr }

// Matches reports whether the schedule fires during the minute holding t (UTC).
func (s Schedule) Matches(t time.Time) bool {
	t = t.UTC()
	return s.minutes&(1<<uint(t.Minute())) != 0 &&
		s.hours&(1<<uint(t.Hour())) != 0 &&
		s.months&(1<<uint(t.Month())) != 0 &&
		s.dayMatches(t.Year(), t.Month(), t.Day())
}

// horizon bounds the search in Next. The rarest schedules that can fire at
// all (29 February on a given weekday) recur within 28 years; an expression
// with nothing in 40 years (31 November) never fires.
const horizon = 40

// Next returns the first minute strictly after `after` at which the schedule
// fires, in UTC, or the zero time if it never fires.
func (s Schedule) Next(after time.Time) time.Time {
	if s.dom.kind == domNone {
		return time.Time{}
	}
	t := after.UTC().Truncate(time.Minute).Add(time.Minute)
	limit := t.AddDate(horizon, 0, 0)
	for t.Before(limit) {
		switch {
		case s.months&(1<<uint(t.Month())) == 0:
			t = time.Date(t.Year(), t.Month()+1, 1, 0, 0, 0, 0, time.UTC)
		case !s.dayMatches(t.Year(), t.Month(), t.Day()):
			t = time.Date(t.Year(), t.Month(), t.Day()+1, 0, 0, 0, 0, time.UTC)
		case s.hours&(1<<uint(t.Hour())) == 0:
			t = time.Date(t.Year(), t.Month(), t.Day(), t.Hour()+1, 0, 0, 0, time.UTC)
		case s.minutes&(1<<uint(t.Minute())) == 0:
			t = t.Add(time.Minute)
		default:
			return t
		}
	}
	return time.Time{}
}

func (s Schedule) dayMatches(y int, m time.Month, d int) bool {
	domStarred, dowStarred := s.dom.kind == domStar, s.dow.kind == dowStar
	switch {
	case domStarred && dowStarred:
		return true
	case domStarred:
		return s.dow.matches(y, m, d)
	case dowStarred:
		return s.dom.matches(y, m, d)
	default:
		return s.dom.matches(y, m, d) || s.dow.matches(y, m, d)
	}
}

func daysIn(y int, m time.Month) int {
	return time.Date(y, m+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

func weekday(y int, m time.Month, d int) time.Weekday {
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Weekday()
}

func (p daySpec) matches(y int, m time.Month, d int) bool {
	last := daysIn(y, m)
	switch p.kind {
	case domStar:
		return true
	case domSet:
		return p.bits&(1<<uint(d)) != 0
	case domLast:
		return d == last-p.arg
	case domLastWeekday:
		base := last - p.arg
		if base < 1 {
			return false
		}
		return d == nearestWeekday(y, m, base, last)
	case domNearest:
		if p.arg > last {
			return false
		}
		return d == nearestWeekday(y, m, p.arg, last)
	}
	return false
}

// nearestWeekday moves a Saturday back to Friday and a Sunday on to Monday,
// without leaving the month (Quartz's "W").
func nearestWeekday(y int, m time.Month, day, last int) int {
	switch weekday(y, m, day) {
	case time.Saturday:
		if day == 1 {
			return 3
		}
		return day - 1
	case time.Sunday:
		if day == last {
			return day - 2
		}
		return day + 1
	}
	return day
}

func (p weekSpec) matches(y int, m time.Month, d int) bool {
	wd := weekday(y, m, d)
	switch p.kind {
	case dowStar:
		return true
	case dowSet:
		return p.bits&(1<<uint(wd)) != 0
	case dowLast:
		return wd == p.weekday && d+7 > daysIn(y, m)
	case dowNth:
		return wd == p.weekday && (d-1)/7+1 == p.nth
	}
	return false
}
