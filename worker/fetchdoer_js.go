//go:build js && wasm

package main

import (
	"bytes"
	"io"
	"net/http"

	"github.com/emojisearch/emojisearch/worker/internal/cf/fetch"
)

// fetchDoer sends net/http requests through the Workers fetch (Go's own
// http.Client adds megabytes to the module and has no network here).
// Redirects are not followed: callers see them as they are.
type fetchDoer struct{}

func (fetchDoer) Do(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Body != nil {
		b, err := io.ReadAll(req.Body)
		_ = req.Body.Close()
		if err != nil {
			return nil, err
		}
		body = b
	}
	res, err := fetch.Do(req.Context(), fetch.Request{
		Method: req.Method, URL: req.URL.String(), Header: req.Header, Body: body, Redirect: "manual",
	})
	if err != nil {
		return nil, err
	}
	return &http.Response{
		Status:        http.StatusText(res.Status),
		StatusCode:    res.Status,
		Header:        res.Header,
		Body:          io.NopCloser(bytes.NewReader(res.Body)),
		ContentLength: int64(len(res.Body)),
		Request:       req,
	}, nil
}
