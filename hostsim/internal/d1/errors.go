package d1

import (
	"errors"
	"fmt"
)

// ErrD1 is matched (errors.Is) by every *Error: a query D1 itself refused or
// that SQLite failed. Cancellation is reported as the context's error instead.
var ErrD1 = errors.New("d1: query failed")

// ErrClosed is returned by every call on a closed DB.
var ErrClosed = errors.New("d1: database is closed")

// Error is a failure as the Worker sees it: Message is the JavaScript
// Error's message and Cause its cause.message, for example
//
//	Message: D1_ERROR: no such table: emoji at offset 14: SQLITE_ERROR
//	Cause:   no such table: emoji at offset 14: SQLITE_ERROR
type Error struct {
	Message string
	Cause   string
	// Code is the SQLite result name ("SQLITE_CONSTRAINT"), or "" when D1
	// refused the query itself (transactions, wrong parameter count...).
	Code string
	// Line is, for Exec, the 1-based line that failed. Local D1 always
	// words an exec failure as "Error in line 1" with the first line's text
	// (miniflare runs all lines as one request); Line tells the truth.
	Line int
}

func (e *Error) Error() string { return e.Message }

// Unwrap makes errors.Is(err, ErrD1) true.
func (e *Error) Unwrap() error { return ErrD1 }

// queryError wraps a failure of run/all/raw/first/batch: "D1_ERROR: <cause>".
func queryError(err error) *Error {
	cause, code := describe(err)
	return &Error{Message: "D1_ERROR: " + cause, Cause: cause, Code: code}
}

// execError wraps a failure of exec the way local D1 words it.
func execError(err error, firstLine string, line int) *Error {
	msg, code := describe(err)
	cause := fmt.Sprintf("Error in line 1: %s: %s", firstLine, msg)
	return &Error{Message: "D1_EXEC_ERROR: " + cause, Cause: cause, Code: code, Line: line}
}

// typeError is D1's refusal of a parameter value it cannot bind.
func typeError(v any) *Error {
	cause := fmt.Sprintf("Type '%T' not supported for value '%v'", v, v)
	return &Error{Message: "D1_TYPE_ERROR: " + cause, Cause: cause}
}

func describe(err error) (string, string) {
	var se *sqliteError
	if errors.As(err, &se) {
		name := primaryCodes[se.code&0xff]
		if se.msg == msgTransaction {
			name = ""
		}
		return se.msg, name
	}
	return err.Error(), ""
}

// d1Error is a refusal in D1's own words, with no SQLite code.
type d1Error string

func (e d1Error) Error() string { return string(e) }
