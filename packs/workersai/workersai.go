// Package workersai embeds texts with a Workers AI model through the
// Cloudflare REST API, in batches, for building vector files of a production
// model (packs/cmd/buildvectors -provider workers-ai).
//
//	c, err := workersai.FromEnv() // CLOUDFLARE_ACCOUNT_ID, CLOUDFLARE_API_TOKEN
//	vecs, err := c.Embed(ctx, "@cf/baai/bge-m3", texts)
//
// Wire format: POST {base}/accounts/{account_id}/ai/run/{model} with
// `Authorization: Bearer <token>` and {"text": [...]}; the answer is
// {"result":{"shape":[n,dims],"data":[[...]]},"success":true,"errors":[],"messages":[]}.
package workersai

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"
)

// DefaultBaseURL is the Cloudflare API v4 root.
const DefaultBaseURL = "https://api.cloudflare.com/client/v4"

// DefaultBatch is how many texts go in one request (the text embedding
// models accept at most 100).
const DefaultBatch = 100

// ErrAPI matches every error the API answered (see *APIError); ErrConfig a
// client without account or token.
var (
	ErrAPI    = errors.New("workersai: API error")
	ErrConfig = errors.New("workersai: missing configuration")
)

// APIError is a non-success answer.
type APIError struct {
	Status int
	Errors []Message
}

// Message is one entry of `errors` in the v4 envelope.
type Message struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (e *APIError) Error() string {
	var parts []string
	for _, m := range e.Errors {
		parts = append(parts, fmt.Sprintf("%d: %s", m.Code, m.Message))
	}
	return fmt.Sprintf("workersai: HTTP %d: %s", e.Status, strings.Join(parts, "; "))
}

// Is makes errors.Is(err, ErrAPI) true.
func (e *APIError) Is(target error) bool { return target == ErrAPI }

// Client calls the REST API. Zero fields take their defaults.
type Client struct {
	AccountID string
	Token     string
	BaseURL   string       // DefaultBaseURL
	HTTP      *http.Client // http.DefaultClient
	Batch     int          // DefaultBatch
	Retries   int          // retries of a 429 or 5xx answer (default 3; negative: none)
	// Sleep waits before a retry (default: a timer honouring ctx); a test seam.
	Sleep func(ctx context.Context, d time.Duration) error
}

// FromEnv reads CLOUDFLARE_ACCOUNT_ID, CLOUDFLARE_API_TOKEN and, optionally,
// CLOUDFLARE_API_BASE_URL.
func FromEnv() (*Client, error) {
	c := &Client{
		AccountID: os.Getenv("CLOUDFLARE_ACCOUNT_ID"),
		Token:     os.Getenv("CLOUDFLARE_API_TOKEN"),
		BaseURL:   os.Getenv("CLOUDFLARE_API_BASE_URL"),
	}
	if c.AccountID == "" || c.Token == "" {
		return nil, fmt.Errorf("%w: set CLOUDFLARE_ACCOUNT_ID and CLOUDFLARE_API_TOKEN", ErrConfig)
	}
	return c, nil
}

// Embed returns one vector per text, in order, calling the model in batches.
// Every row has the same length; a wrong shape is an error.
func (c *Client) Embed(ctx context.Context, model string, texts []string) ([][]float32, error) {
	if c.AccountID == "" || c.Token == "" {
		return nil, fmt.Errorf("%w: account id and API token are required", ErrConfig)
	}
	batch := c.Batch
	if batch <= 0 {
		batch = DefaultBatch
	}
	out := make([][]float32, 0, len(texts))
	dims := 0
	for start := 0; start < len(texts); start += batch {
		part := texts[start:min(start+batch, len(texts))]
		rows, err := c.run(ctx, model, part)
		if err != nil {
			return nil, fmt.Errorf("workersai: texts %d..%d: %w", start, start+len(part)-1, err)
		}
		for _, r := range rows {
			if dims == 0 {
				dims = len(r)
			}
			if len(r) != dims || dims == 0 {
				return nil, fmt.Errorf("%w: row of %d values, want %d", ErrAPI, len(r), dims)
			}
		}
		out = append(out, rows...)
	}
	return out, nil
}

type response struct {
	Result *struct {
		Shape []int       `json:"shape"`
		Data  [][]float32 `json:"data"`
	} `json:"result"`
	Success bool      `json:"success"`
	Errors  []Message `json:"errors"`
}

func (c *Client) run(ctx context.Context, model string, texts []string) ([][]float32, error) {
	body, err := json.Marshal(map[string][]string{"text": texts})
	if err != nil {
		return nil, err
	}
	base := c.BaseURL
	if base == "" {
		base = DefaultBaseURL
	}
	url := strings.TrimSuffix(base, "/") + "/accounts/" + c.AccountID + "/ai/run/" + model
	hc := c.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	retries := c.Retries
	if retries == 0 {
		retries = 3
	}
	for attempt := 0; ; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
		if err != nil {
			return nil, err
		}
		req.Header.Set("Authorization", "Bearer "+c.Token)
		req.Header.Set("Content-Type", "application/json")
		resp, err := hc.Do(req)
		if err != nil {
			return nil, err
		}
		raw, err := io.ReadAll(io.LimitReader(resp.Body, 256<<20))
		resp.Body.Close()
		if err != nil {
			return nil, err
		}
		retry := resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500
		if retry && attempt < retries {
			if err := c.sleep(ctx, backoff(resp.Header.Get("Retry-After"), attempt)); err != nil {
				return nil, err
			}
			continue
		}
		var r response
		if jerr := json.Unmarshal(raw, &r); jerr != nil && resp.StatusCode == http.StatusOK {
			return nil, fmt.Errorf("%w: HTTP 200 with a body that is not JSON: %v", ErrAPI, jerr)
		}
		if resp.StatusCode != http.StatusOK || !r.Success {
			return nil, &APIError{Status: resp.StatusCode, Errors: r.Errors}
		}
		if r.Result == nil || len(r.Result.Data) != len(texts) || len(r.Result.Shape) != 2 ||
			r.Result.Shape[0] != len(texts) || (len(r.Result.Data) > 0 && r.Result.Shape[1] != len(r.Result.Data[0])) {
			return nil, fmt.Errorf("%w: result shape does not match %d texts", ErrAPI, len(texts))
		}
		return r.Result.Data, nil
	}
}

// backoff honours Retry-After (seconds), else doubles from 1 s.
func backoff(retryAfter string, attempt int) time.Duration {
	if s, err := strconv.ParseFloat(retryAfter, 64); err == nil && s >= 0 {
		return time.Duration(s * float64(time.Second))
	}
	return time.Second << attempt
}

func (c *Client) sleep(ctx context.Context, d time.Duration) error {
	if c.Sleep != nil {
		return c.Sleep(ctx, d)
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
