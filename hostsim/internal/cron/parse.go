package cron

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// field describes one numeric field: its bounds and, for months and weekdays,
// the three-letter names accepted in place of numbers.
type field struct {
	min, max int
	names    []string // names[i] stands for min+i
}

var (
	minuteField = field{min: 0, max: 59}
	hourField   = field{min: 0, max: 23}
	domField    = field{min: 1, max: 31}
	monthField  = field{min: 1, max: 12, names: []string{"JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"}}
	dowField    = field{min: 1, max: 7, names: []string{"SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"}}
)

// maxStep is the largest step saffron accepts: the width of the field.
func (f field) maxStep() int { return f.max - f.min }

// value reads one number or name at the start of s and returns the rest.
func (f field) value(s string) (int, string, error) {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	if n > 0 {
		v := 0
		for _, c := range s[:n] {
			v = v*10 + int(c-'0')
			if v > 255 { // saffron reads a u8
				return 0, s, fmt.Errorf("value %s out of range %d-%d", s[:n], f.min, f.max)
			}
		}
		if v < f.min || v > f.max {
			if f.names != nil && f.min == 1 && f.max == 7 && v == 0 {
				return 0, s, fmt.Errorf("value 0 out of range 1-7 (1 = Sunday)")
			}
			return 0, s, fmt.Errorf("value %d out of range %d-%d", v, f.min, f.max)
		}
		return v, s[n:], nil
	}
	if len(s) >= 3 {
		for i, name := range f.names {
			if strings.EqualFold(s[:3], name) {
				return f.min + i, s[3:], nil
			}
		}
	}
	if s == "" {
		return 0, s, errors.New("missing value")
	}
	return 0, s, fmt.Errorf("unexpected %q", s)
}

func (f field) step(s string) (int, string, error) {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	if n == 0 {
		return 0, s, fmt.Errorf("missing step after '/'")
	}
	v := 0
	for _, c := range s[:n] {
		v = v*10 + int(c-'0')
		if v > 255 {
			break
		}
	}
	if v < 1 || v > f.maxStep() {
		return 0, s, fmt.Errorf("step %s out of range 1-%d", s[:n], f.maxStep())
	}
	return v, s[n:], nil
}

// item reads one list element: a value (or '*' for the minimum), optionally
// followed by "/step" or "-end" and "-end/step"; it returns the bits it sets.
func (f field) item(s string) (uint64, string, error) {
	var start int
	var err error
	if strings.HasPrefix(s, "*") {
		start, s = f.min, s[1:]
	} else if start, s, err = f.value(s); err != nil {
		return 0, s, err
	}
	end, step := start, 1
	switch {
	case strings.HasPrefix(s, "/"):
		end = f.max
		if step, s, err = f.step(s[1:]); err != nil {
			return 0, s, err
		}
	case strings.HasPrefix(s, "-"):
		if end, s, err = f.value(s[1:]); err != nil {
			return 0, s, err
		}
		if strings.HasPrefix(s, "/") {
			if step, s, err = f.step(s[1:]); err != nil {
				return 0, s, err
			}
		}
	}
	return f.span(start, end, step), s, nil
}

// span sets start, start+step, ... up to end, wrapping past the maximum when
// end < start (so "FRI-MON" and "22-2" work as in Quartz).
func (f field) span(start, end, step int) uint64 {
	var bits uint64
	width := f.max - f.min + 1
	count := end - start
	if count < 0 {
		count += width
	}
	for i := 0; i <= count; i += step {
		v := start + i
		if v > f.max {
			v -= width
		}
		bits |= 1 << uint(v)
	}
	return bits
}

// list reads comma-separated items until the end of the field.
func (f field) list(bits uint64, s string) (uint64, error) {
	for s != "" {
		if s[0] != ',' {
			return 0, fmt.Errorf("unexpected %q", s)
		}
		b, rest, err := f.item(s[1:])
		if err != nil {
			return 0, err
		}
		bits, s = bits|b, rest
	}
	return bits, nil
}

// parseSimple reads a minute, hour or month field.
func parseSimple(s string, f field) (uint64, error) {
	if s == "*" {
		return f.span(f.min, f.max, 1), nil
	}
	if strings.HasPrefix(s, "*") && !strings.HasPrefix(s, "*/") {
		return 0, fmt.Errorf("unexpected %q after '*'", s[1:])
	}
	bits, rest, err := f.item(s)
	if err != nil {
		return 0, err
	}
	return f.list(bits, rest)
}

func parseDOM(s string) (daySpec, error) {
	if s == "*" {
		return daySpec{kind: domStar}, nil
	}
	if strings.HasPrefix(s, "L") {
		switch rest := s[1:]; {
		case rest == "":
			return daySpec{kind: domLast}, nil
		case rest == "W":
			return daySpec{kind: domLastWeekday}, nil
		case strings.HasPrefix(rest, "-"):
			n, tail, err := lastOffset(rest[1:])
			if err != nil {
				return daySpec{}, err
			}
			switch tail {
			case "":
				return daySpec{kind: domLast, arg: n}, nil
			case "W":
				return daySpec{kind: domLastWeekday, arg: n}, nil
			}
			return daySpec{}, fmt.Errorf("unexpected %q", tail)
		default:
			return daySpec{}, fmt.Errorf("unexpected %q after 'L'", rest)
		}
	}
	if day, rest, err := domField.value(s); err == nil && rest == "W" {
		return daySpec{kind: domNearest, arg: day}, nil
	}
	bits, err := parseSimple(s, domField)
	if err != nil {
		return daySpec{}, err
	}
	return daySpec{kind: domSet, bits: uint32(bits)}, nil
}

// lastOffset reads the n of "L-n": 1-30.
func lastOffset(s string) (int, string, error) {
	n, rest, err := domField.value(s)
	if err != nil {
		return 0, s, err
	}
	if n > 30 {
		return 0, s, fmt.Errorf("offset %d out of range 1-30", n)
	}
	return n, rest, nil
}

func parseDOW(s string) (weekSpec, error) {
	switch s {
	case "*":
		return weekSpec{kind: dowStar}, nil
	case "L": // saffron reads a lone L as Saturday, the last day of the week
		return weekSpec{kind: dowSet, bits: 1 << uint(time.Saturday)}, nil
	}
	if !strings.HasPrefix(s, "*") {
		day, rest, err := dowField.value(s)
		if err != nil {
			return weekSpec{}, err
		}
		wd := time.Weekday(day - 1)
		switch {
		case rest == "L":
			return weekSpec{kind: dowLast, weekday: wd}, nil
		case strings.HasPrefix(rest, "#"):
			nth := rest[1:]
			if len(nth) != 1 || nth[0] < '1' || nth[0] > '5' {
				return weekSpec{}, fmt.Errorf("'#' wants 1-5, got %q", nth)
			}
			return weekSpec{kind: dowNth, weekday: wd, nth: int(nth[0] - '0')}, nil
		}
	}
	bits, err := parseSimple(s, dowField)
	if err != nil {
		return weekSpec{}, err
	}
	return weekSpec{kind: dowSet, bits: uint8(bits >> 1)}, nil // 1-7 -> Sunday=bit 0
}
