// Package aimodel serves the local embedding model (engine/embed) as Workers
// AI: as hostsim's AI binding (env.AI.run(model, {text})) and over HTTP in the
// Workers AI REST shape, so a Worker running in workerd, which has no local
// Workers AI, reaches the same model.
//
//	m, err := aimodel.Open("packs/models/glove-cldr.100.embm")
//	cfg = cfg.WithAI(m)                                 // env.AI.run("@local/glove-cldr", {text: ["cat"]})
//	http.ListenAndServe("127.0.0.1:8788", m.Handler()) // POST /accounts/{id}/ai/run/@local/glove-cldr
//
// Both answer {shape: [n, dims], data: [[...], ...]} with unit-length rows.
package aimodel

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/emojisearch/emojisearch/engine/embed"
)

// Name is the Workers AI model name the local model answers to, besides its
// `<model_key>@<dims>` name ("glove-cldr@100") and any WithNames alias.
const Name = "@local/glove-cldr"

// MaxTexts is the largest batch one call accepts (Workers AI's text
// embedding models take at most 100 texts).
const MaxTexts = 100

// Workers AI error codes the local model returns.
const (
	CodeInvalidInput = 5006 // the inputs do not match the model's schema
	CodeNoSuchModel  = 5007 // the model name is unknown
)

// Error is a Workers AI error: env.AI.run rejects with "AiError: <code>:
// <message>", the REST API answers it in `errors`.
type Error struct {
	Code    int
	Message string
}

func (e *Error) Error() string { return fmt.Sprintf("%d: %s", e.Code, e.Message) }

// ErrInvalidInput and ErrNoSuchModel match errors of those codes with errors.Is.
var (
	ErrInvalidInput = &Error{Code: CodeInvalidInput}
	ErrNoSuchModel  = &Error{Code: CodeNoSuchModel}
)

// Is matches by code.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code == e.Code
}

// Model is a hostsim.AIModel over an embed.Model. It is safe for concurrent use.
type Model struct {
	m     *embed.Model
	names []string
}

// New serves m under Name and m.Name().
func New(m *embed.Model) *Model {
	return &Model{m: m, names: []string{Name, m.Name()}}
}

// Open loads a model file (packs/models/glove-cldr.100.embm).
func Open(path string) (*Model, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("aimodel: %w", err)
	}
	m, err := embed.Load(data)
	if err != nil {
		return nil, fmt.Errorf("aimodel: %s: %w", path, err)
	}
	return New(m), nil
}

// WithNames returns a copy that also answers to these model names (for
// example the production model's name, for a Worker whose configuration
// cannot be changed locally; responses still have the local model's dims).
func (a *Model) WithNames(names ...string) *Model {
	c := *a
	c.names = append(slices.Clone(a.names), names...)
	return &c
}

// Names lists the model names served.
func (a *Model) Names() []string { return slices.Clone(a.names) }

// Embedding is the local model.
func (a *Model) Embedding() *embed.Model { return a.m }

// Run answers env.AI.run(model, inputs): inputs is {text: string | string[]}
// as JSON-like Go values; the output is {shape: [n, dims], data: [[...]]}.
func (a *Model) Run(ctx context.Context, model string, inputs any) (any, error) {
	texts, err := a.check(model, inputs)
	if err != nil {
		return nil, err
	}
	vecs, err := a.embed(ctx, texts)
	if err != nil {
		return nil, err
	}
	data := make([]any, len(vecs))
	for i, v := range vecs {
		row := make([]any, len(v))
		for j, x := range v {
			row[j] = float64(x)
		}
		data[i] = row
	}
	return map[string]any{"shape": []any{float64(len(vecs)), float64(a.m.Dims())}, "data": data}, nil
}

// check validates the model name and the inputs as Workers AI does.
func (a *Model) check(model string, inputs any) ([]string, error) {
	if !slices.Contains(a.names, model) {
		return nil, &Error{CodeNoSuchModel, fmt.Sprintf("No such model %s or task (local models: %s)", model, strings.Join(a.names, ", "))}
	}
	obj, ok := inputs.(map[string]any)
	if !ok {
		return nil, &Error{CodeInvalidInput, "Error: Type mismatch of '/', 'string' not in 'object'"}
	}
	var texts []string
	switch t := obj["text"].(type) {
	case nil:
		return nil, &Error{CodeInvalidInput, "Error: required properties at '/' are 'text'"}
	case string:
		texts = []string{t}
	case []string:
		texts = t
	case []any:
		for i, x := range t {
			s, ok := x.(string)
			if !ok {
				return nil, &Error{CodeInvalidInput, fmt.Sprintf("Error: Type mismatch of '/text/%d', 'string' not in its type", i)}
			}
			texts = append(texts, s)
		}
	default:
		return nil, &Error{CodeInvalidInput, "Error: Type mismatch of '/text', 'string' or 'array' expected"}
	}
	if len(texts) == 0 {
		return nil, &Error{CodeInvalidInput, "Error: Array must have at least 1 item(s) at '/text'"}
	}
	if len(texts) > MaxTexts {
		return nil, &Error{CodeInvalidInput, fmt.Sprintf("Error: Array must have at most %d item(s) at '/text'", MaxTexts)}
	}
	return texts, nil
}

func (a *Model) embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		out[i] = a.m.Embed(t)
	}
	return out, nil
}
