package aimodel

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
)

// MaxBodyBytes bounds a REST request body.
const MaxBodyBytes = 10 << 20

// Handler serves the model in the Workers AI REST shape:
//
//	POST /accounts/{account_id}/ai/run/{model}   (model may contain '/': @local/glove-cldr)
//	Authorization: Bearer <token>                 (any token unless WithToken was given)
//	{"text": ["cat", "so tired"]}
//
// answers 200 {"result":{"shape":[2,100],"data":[[...],[...]]},"success":true,"errors":[],"messages":[]},
// or the Cloudflare v4 error envelope {"result":null,"success":false,"errors":[{"code":..,"message":..}],"messages":[]}
// with 400 (bad JSON or inputs), 401 (no or wrong token), 404 (unknown model) or 405.
func (a *Model) Handler() http.Handler { return a.HandlerWithToken("") }

// HandlerWithToken is Handler requiring exactly this bearer token (any
// non-empty token when token is "").
func (a *Model) HandlerWithToken(token string) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/accounts/{account}/ai/run/{model...}", func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.Header().Set("Allow", http.MethodPost)
			writeError(w, http.StatusMethodNotAllowed, 10000, "method not allowed")
			return
		}
		got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		if !ok || got == "" || (token != "" && got != token) {
			writeError(w, http.StatusUnauthorized, 10000, "Authentication error")
			return
		}
		body, err := io.ReadAll(io.LimitReader(r.Body, MaxBodyBytes+1))
		if err != nil || len(body) > MaxBodyBytes {
			writeError(w, http.StatusBadRequest, CodeInvalidInput, "request body unreadable or over 10 MB")
			return
		}
		var inputs any
		if err := json.Unmarshal(body, &inputs); err != nil {
			writeError(w, http.StatusBadRequest, CodeInvalidInput, "Error: request body is not JSON: "+err.Error())
			return
		}
		out, err := a.Run(r.Context(), r.PathValue("model"), inputs)
		var e *Error
		switch {
		case errors.As(err, &e) && e.Code == CodeNoSuchModel:
			writeError(w, http.StatusNotFound, e.Code, e.Message)
			return
		case errors.As(err, &e):
			writeError(w, http.StatusBadRequest, e.Code, e.Message)
			return
		case err != nil:
			writeError(w, http.StatusInternalServerError, 3000, err.Error())
			return
		}
		writeJSON(w, http.StatusOK, envelope{Result: out, Success: true, Errors: []apiError{}, Messages: []any{}})
	})
	return mux
}

type apiError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

type envelope struct {
	Result   any        `json:"result"`
	Success  bool       `json:"success"`
	Errors   []apiError `json:"errors"`
	Messages []any      `json:"messages"`
}

func writeError(w http.ResponseWriter, status, code int, msg string) {
	writeJSON(w, status, envelope{Errors: []apiError{{code, msg}}, Messages: []any{}})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
