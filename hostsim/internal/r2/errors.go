package r2

import "fmt"

// Error is an R2 call Cloudflare would refuse. For R2's own refusals Status,
// Code and Action are set and JSType is "R2Error"; for checks workerd makes
// before calling R2 (bad ranges, quoted ETags, ...) Status and Code are 0 and
// JSType names the class it throws. Message is the bare text; Error() adds
// what JS code sees: "put: The specified object name is not valid. (10020)".
// Match it with errors.As.
type Error struct {
	Status  int
	Code    int
	Message string
	Action  string
	JSType  string
}

func (e *Error) Error() string { return "r2: " + e.JSMessage() }

// JSMessage is err.message as JS code sees it.
func (e *Error) JSMessage() string {
	if e.Code == 0 {
		return e.Message
	}
	return fmt.Sprintf(msgServiceError, e.Action, e.Message, e.Code)
}

func serviceError(action string, status, code int, msg string) *Error {
	return &Error{Status: status, Code: code, Message: msg, Action: action, JSType: jsR2Error}
}

func runtimeError(jsType, format string, args ...any) *Error {
	return &Error{Message: fmt.Sprintf(format, args...), JSType: jsType}
}

func errInvalidObjectName(action string) *Error {
	return serviceError(action, 400, CodeInvalidObjectName, msgInvalidObjectName)
}

func errInvalidRange() *Error {
	return serviceError("get", 416, CodeInvalidRange, msgInvalidRange)
}
