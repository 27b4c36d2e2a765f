package packfmt

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// MarshalJSON writes the row as a flat array in ROW_INDEX order; the phrases
// of one field are joined with Sep into one string.
func (r Row) MarshalJSON() ([]byte, error) {
	cells := make([]any, NumCols)
	cells[ColID] = r.ID
	cells[ColEmoji] = r.Emoji
	cells[ColGroup] = r.Group
	cells[ColSubgroup] = r.Subgroup
	cells[ColVersion] = r.Version
	skins := 0
	if r.Skins {
		skins = 1
	}
	cells[ColSkins] = skins
	cells[ColPrior] = r.Prior
	cells[ColFamily] = r.Family
	cells[ColLabel] = r.Label
	for f := range NumStoredFields {
		cells[ColName+f] = strings.Join(r.Phrases[f], Sep)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(cells); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// UnmarshalJSON reads a row array written by MarshalJSON. It is a small
// scanner for arrays of strings and numbers, several times faster than
// decoding into []any, which keeps the engine's cold start short.
func (r *Row) UnmarshalJSON(data []byte) error {
	s := scanner{b: data}
	s.ws()
	if !s.eat('[') {
		return fmt.Errorf("%w: row is not an array", ErrInvalid)
	}
	for col := 0; ; col++ {
		s.ws()
		if col == 0 && s.eat(']') {
			break
		}
		if col >= NumCols {
			return fmt.Errorf("%w: row has more than %d cells", ErrInvalid, NumCols)
		}
		switch col {
		case ColID, ColEmoji, ColFamily, ColLabel, ColName, ColShortcode, ColKeyword, ColAlias, ColLow, ColEditorial, ColEditorialMore:
			str, err := s.str()
			if err != nil {
				return err
			}
			switch col {
			case ColID:
				r.ID = str
			case ColEmoji:
				r.Emoji = str
			case ColFamily:
				r.Family = str
			case ColLabel:
				r.Label = str
			default:
				if str != "" {
					r.Phrases[col-ColName] = strings.Split(str, Sep)
				}
			}
		default:
			n, err := s.num()
			if err != nil {
				return err
			}
			switch col {
			case ColGroup:
				r.Group = int(n)
			case ColSubgroup:
				r.Subgroup = int(n)
			case ColVersion:
				r.Version = n
			case ColSkins:
				r.Skins = n != 0
			case ColPrior:
				r.Prior = int(n)
			}
		}
		s.ws()
		if s.eat(']') {
			if col != NumCols-1 && col != ColLow { // ColLow: a version 1 row
				return fmt.Errorf("%w: row has %d cells, want %d", ErrInvalid, col+1, NumCols)
			}
			break
		}
		if !s.eat(',') {
			return fmt.Errorf("%w: row: expected ',' at byte %d", ErrInvalid, s.i)
		}
	}
	s.ws()
	if s.i != len(s.b) {
		return fmt.Errorf("%w: trailing data after row", ErrInvalid)
	}
	return nil
}

type scanner struct {
	b []byte
	i int
}

func (s *scanner) ws() {
	for s.i < len(s.b) && (s.b[s.i] == ' ' || s.b[s.i] == '\n' || s.b[s.i] == '\t' || s.b[s.i] == '\r') {
		s.i++
	}
}

func (s *scanner) eat(c byte) bool {
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

func (s *scanner) num() (float64, error) {
	start := s.i
	for s.i < len(s.b) && strings.IndexByte("+-.0123456789eE", s.b[s.i]) >= 0 {
		s.i++
	}
	f, err := strconv.ParseFloat(string(s.b[start:s.i]), 64)
	if err != nil {
		return 0, fmt.Errorf("%w: row: bad number at byte %d", ErrInvalid, start)
	}
	return f, nil
}

func (s *scanner) str() (string, error) {
	if !s.eat('"') {
		return "", fmt.Errorf("%w: row: expected string at byte %d", ErrInvalid, s.i)
	}
	start := s.i
	for s.i < len(s.b) {
		c := s.b[s.i]
		switch {
		case c == '"':
			out := string(s.b[start:s.i])
			s.i++
			if !utf8.ValidString(out) {
				return "", fmt.Errorf("%w: row: invalid UTF-8", ErrInvalid)
			}
			return out, nil
		case c == '\\':
			return s.slowStr(start)
		case c < 0x20:
			return "", fmt.Errorf("%w: row: control character in string", ErrInvalid)
		}
		s.i++
	}
	return "", fmt.Errorf("%w: row: unterminated string", ErrInvalid)
}

// slowStr decodes a string with escapes (rare in packs) from its start.
func (s *scanner) slowStr(start int) (string, error) {
	var out []byte
	out = append(out, s.b[start:s.i]...)
	for s.i < len(s.b) {
		c := s.b[s.i]
		if c == '"' {
			s.i++
			if !utf8.Valid(out) {
				return "", fmt.Errorf("%w: row: invalid UTF-8", ErrInvalid)
			}
			return string(out), nil
		}
		if c != '\\' {
			out = append(out, c)
			s.i++
			continue
		}
		if s.i+1 >= len(s.b) {
			break
		}
		e := s.b[s.i+1]
		s.i += 2
		switch e {
		case '"', '\\', '/':
			out = append(out, e)
		case 'n':
			out = append(out, '\n')
		case 't':
			out = append(out, '\t')
		case 'r':
			out = append(out, '\r')
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'u':
			r, ok := s.hex4()
			if !ok {
				return "", fmt.Errorf("%w: row: bad \\u escape", ErrInvalid)
			}
			if utf16.IsSurrogate(r) {
				if s.i+1 < len(s.b) && s.b[s.i] == '\\' && s.b[s.i+1] == 'u' {
					s.i += 2
					r2, ok := s.hex4()
					if !ok {
						return "", fmt.Errorf("%w: row: bad \\u escape", ErrInvalid)
					}
					r = utf16.DecodeRune(r, r2)
				} else {
					r = utf8.RuneError
				}
			}
			out = utf8.AppendRune(out, r)
		default:
			return "", fmt.Errorf("%w: row: bad escape", ErrInvalid)
		}
	}
	return "", fmt.Errorf("%w: row: unterminated string", ErrInvalid)
}

func (s *scanner) hex4() (rune, bool) {
	if s.i+4 > len(s.b) {
		return 0, false
	}
	v, err := strconv.ParseUint(string(s.b[s.i:s.i+4]), 16, 32)
	if err != nil {
		return 0, false
	}
	s.i += 4
	return rune(v), true
}

// Decode parses and validates one pack file.
func Decode(data []byte) (*Pack, error) {
	var p Pack
	if err := json.Unmarshal(data, &p); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	return &p, nil
}
