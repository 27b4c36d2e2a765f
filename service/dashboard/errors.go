package dashboard

import (
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"

	"github.com/emojisearch/emojisearch/service/httpx"
)

// MaxBody is the largest JSON or form body a dashboard route reads.
const MaxBody = 16 << 10

// Error is the body of a dashboard error: {"error": Error}.
type Error struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Field   string `json:"field,omitempty"`
	Plan    string `json:"plan,omitempty"`
}

// Fail writes a dashboard error.
func Fail(w http.ResponseWriter, status int, e Error) {
	w.Header().Set("Cache-Control", "no-store")
	httpx.JSON(w, status, map[string]Error{"error": e})
}

// Answers several routes share.
var (
	errNotFound      = Error{Code: "not_found", Message: "Not found."}
	errForbiddenRole = Error{Code: "forbidden_role", Message: "Your role does not allow this."}
)

// invalid is 400 invalid_request naming the field.
func invalid(w http.ResponseWriter, field, message string) {
	Fail(w, http.StatusBadRequest, Error{Code: "invalid_request", Message: message, Field: field})
}

// planRequired is 402 plan_required naming the cheapest plan that allows
// the action.
func planRequired(w http.ResponseWriter, plan, message string) {
	Fail(w, http.StatusPaymentRequired, Error{Code: "plan_required", Message: message, Plan: plan})
}

// DecodeJSON reads a JSON body of at most MaxBody bytes into v. It answers
// and returns false for a body that is not application/json (415
// unsupported_media_type), too large (413 body_too_large), malformed (400
// invalid_json) or has a field of the wrong type (400 invalid_request with
// field).
func DecodeJSON(w http.ResponseWriter, r *http.Request, v any) bool {
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "application/json" {
		Fail(w, http.StatusUnsupportedMediaType, Error{Code: "unsupported_media_type",
			Message: "Send the body as application/json."})
		return false
	}
	data, ok := readBody(w, r)
	if !ok {
		return false
	}
	if err := json.Unmarshal(data, v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			invalid(w, te.Field, "The field "+te.Field+" has the wrong type.")
			return false
		}
		Fail(w, http.StatusBadRequest, Error{Code: "invalid_json", Message: "The body is not valid JSON."})
		return false
	}
	return true
}

// readBody reads at most MaxBody bytes, answering 413 body_too_large past
// that.
func readBody(w http.ResponseWriter, r *http.Request) ([]byte, bool) {
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBody))
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		Fail(w, http.StatusRequestEntityTooLarge, Error{Code: "body_too_large", Message: "The body is larger than 16 KB."})
		return nil, false
	}
	if err != nil {
		Fail(w, http.StatusBadRequest, Error{Code: "invalid_request", Message: "The body could not be read."})
		return nil, false
	}
	return data, true
}
