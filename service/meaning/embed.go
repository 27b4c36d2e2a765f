package meaning

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"strings"

	"github.com/emojisearch/emojisearch/service/modelguard"
)

// Embedder turns texts into vectors, one row per text.
type Embedder interface {
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// ErrBackend wraps every failure of the embedding backend: the search
// answer is then degraded (spec 1).
var ErrBackend = errors.New("meaning: embedding backend failed")

// Runner is the AI binding: env.AI.run(model, inputs) decoded into out.
type Runner interface {
	Run(ctx context.Context, model string, inputs, out any) error
}

// Binding embeds through the Workers AI binding.
type Binding struct {
	AI    Runner
	Model string // Workers AI model name, e.g. @cf/baai/bge-m3
}

// RowsRunner is a Runner that also hands back an embedding answer's
// `data` rows without a JSON round trip. The worker's AI binding is one:
// decoding a 100-float answer with encoding/json costs about a
// millisecond in js/wasm, most of a reaction request's own time.
type RowsRunner interface {
	Runner
	RunRows(ctx context.Context, model string, inputs any) ([][]float64, error)
}

// Embed calls env.AI.run(model, {text: texts}).
func (b Binding) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	inputs := map[string]any{"text": texts}
	var out output
	if rr, ok := b.AI.(RowsRunner); ok {
		data, err := rr.RunRows(ctx, b.Model, inputs)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrBackend, err)
		}
		out.Data = data
	} else if err := b.AI.Run(ctx, b.Model, inputs, &out); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBackend, err)
	}
	return out.rows(len(texts))
}

// Doer sends a request (the worker passes its fetch-backed one, as for
// service/auth; tests pass an http.Client).
type Doer interface {
	Do(*http.Request) (*http.Response, error)
}

// REST embeds through the Workers AI REST API:
// POST {BaseURL}{model} with {text: [...]}, answering
// {result: {shape, data}, success, errors, messages}. BaseURL ends with
// "/ai/run/", as https://api.cloudflare.com/client/v4/accounts/ID/ai/run/.
type REST struct {
	BaseURL string
	Token   string
	Model   string
	Client  Doer
}

// Embed calls the REST API.
func (r REST) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	body, err := json.Marshal(map[string]any{"text": texts})
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, r.BaseURL+r.Model, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBackend, err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+r.Token)
	resp, err := r.Client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBackend, err)
	}
	defer resp.Body.Close()
	status := resp.StatusCode
	res, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswer))
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBackend, err)
	}
	var env struct {
		Result  *output `json:"result"`
		Success bool    `json:"success"`
		Errors  []struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"errors"`
	}
	if err := json.NewDecoder(bytes.NewReader(res)).Decode(&env); err != nil {
		return nil, fmt.Errorf("%w: status %d, body not JSON", ErrBackend, status)
	}
	if status != http.StatusOK || !env.Success || env.Result == nil {
		msgs := make([]string, 0, len(env.Errors))
		for _, e := range env.Errors {
			msgs = append(msgs, fmt.Sprintf("%d %s", e.Code, e.Message))
		}
		return nil, fmt.Errorf("%w: status %d: %s", ErrBackend, status, strings.Join(msgs, "; "))
	}
	return env.Result.rows(len(texts))
}

// maxAnswer bounds a REST answer read into memory (one query's vector is
// a few KB; bge-m3's 1024 floats as JSON about 20 KB).
const maxAnswer = 4 << 20

// output is Workers AI's text-embedding answer.
type output struct {
	Shape []int       `json:"shape"`
	Data  [][]float64 `json:"data"`
}

// rows checks the answer has one finite row per text, all of one width.
func (o output) rows(n int) ([][]float32, error) {
	if len(o.Data) != n {
		return nil, fmt.Errorf("%w: %d rows for %d texts", ErrBackend, len(o.Data), n)
	}
	out := make([][]float32, n)
	for i, row := range o.Data {
		if len(row) == 0 || len(row) != len(o.Data[0]) {
			return nil, fmt.Errorf("%w: ragged or empty rows", ErrBackend)
		}
		v := make([]float32, len(row))
		for j, f := range row {
			if math.IsNaN(f) || math.IsInf(f, 0) {
				return nil, fmt.Errorf("%w: non-finite value", ErrBackend)
			}
			v[j] = float32(f)
		}
		out[i] = v
	}
	return out, nil
}

// Guarded embeds through a breaker (service/modelguard): every call has a
// deadline, and none is made while the breaker is open. Every failure,
// the deadline's and the open breaker's included, is an ErrBackend error,
// so the routes degrade as for any backend failure.
type Guarded struct {
	Embedder Embedder
	Breaker  *modelguard.Breaker
}

// Available reports whether the backend answers now: false while the
// breaker is open, else the last call's outcome when recent, else that of
// a one-word embedding (modelguard.Breaker.Check). It is /v1/health's
// `semantic`, so a model that is bound but does not answer (as with
// `hostsim serve --ai-model none`) reads false.
func (g Guarded) Available(ctx context.Context) bool {
	return g.Breaker.Check(ctx, func(ctx context.Context) error {
		_, err := g.Embedder.Embed(ctx, []string{"health"})
		return err
	})
}

// Embed calls the embedder through the breaker.
func (g Guarded) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	return modelguard.Guard(ctx, g.Breaker, ErrBackend, func(ctx context.Context) ([][]float32, error) {
		return g.Embedder.Embed(ctx, texts)
	})
}

// Local embeds in process with a model of engine/embed (the native service
// and the evaluation command; the worker reaches models through Workers AI).
type Local struct {
	Model interface{ EmbedAll([]string) [][]float32 }
}

// Embed embeds every text.
func (l Local) Embed(_ context.Context, texts []string) ([][]float32, error) {
	return l.Model.EmbedAll(texts), nil
}
