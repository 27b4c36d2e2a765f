package visionmodel

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"

	"github.com/emojisearch/emojisearch/localai/aimodel"
)

// Mux is hostsim's AI binding when several local models are bound: the
// vision model by its name, every other name to the embedding model.
type Mux struct {
	Vision *Model
	Embed  *aimodel.Model
}

// Run answers env.AI.run.
func (x Mux) Run(ctx context.Context, model string, inputs any) (any, error) {
	if model == Name && x.Vision != nil {
		return x.Vision.Run(ctx, model, inputs)
	}
	if x.Embed != nil {
		return x.Embed.Run(ctx, model, inputs)
	}
	return nil, &aimodel.Error{Code: aimodel.CodeNoSuchModel, Message: "No such model " + model}
}

// Handler serves the bound models as the Workers AI REST API
// (POST /accounts/<id>/ai/run/<model>, any bearer token).
func (x Mux) Handler() http.Handler {
	var embed http.Handler = http.NotFoundHandler()
	if x.Embed != nil {
		embed = x.Embed.Handler()
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if x.Vision == nil || !strings.HasSuffix(r.URL.Path, "/ai/run/"+Name) || r.Method != http.MethodPost {
			embed.ServeHTTP(w, r)
			return
		}
		if tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); !ok || tok == "" {
			writeEnvelope(w, http.StatusUnauthorized, nil, 10000, "Authentication error")
			return
		}
		var inputs any
		body, err := io.ReadAll(io.LimitReader(r.Body, 8*MaxImageBytes))
		if err != nil || json.Unmarshal(body, &inputs) != nil {
			writeEnvelope(w, http.StatusBadRequest, nil, aimodel.CodeInvalidInput, "Error: request body is not JSON")
			return
		}
		out, err := x.Vision.Run(r.Context(), Name, inputs)
		var e *aimodel.Error
		switch {
		case errors.As(err, &e):
			writeEnvelope(w, http.StatusBadRequest, nil, e.Code, e.Message)
		case err != nil:
			writeEnvelope(w, http.StatusInternalServerError, nil, 3000, err.Error())
		default:
			writeEnvelope(w, http.StatusOK, out, 0, "")
		}
	})
}

func writeEnvelope(w http.ResponseWriter, status int, result any, code int, msg string) {
	errs := []any{}
	if code != 0 {
		errs = append(errs, map[string]any{"code": code, "message": msg})
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"result": result, "success": code == 0, "errors": errs, "messages": []any{}})
}
