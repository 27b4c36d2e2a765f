package webapi

import (
	"bytes"
	"io"
	"net/http"

	"github.com/emojisearch/emojisearch/hostsim/internal/jsrt"
)

// maxFetchBody bounds what an outbound fetch buffers (Workers streams; a
// buffered simulator must cap).
const maxFetchBody = 128 << 20

func (w *Web) installFetch() {
	rt := w.rt
	rt.GlobalMethod("fetch", func(_ jsrt.Value, args []jsrt.Value) (jsrt.Value, error) {
		req, err := w.requestFrom(jsrt.Arg(args, 0), jsrt.Arg(args, 1))
		if err != nil {
			return rt.Rejected(rt.ThrowValue(err)), nil
		}
		p, resolve, reject := rt.NewPromise()
		w.ReadAll(req.Body, func(body []byte, err error) {
			if err != nil {
				reject(rt.ThrowValue(err))
				return
			}
			w.send(req, body, resolve, reject)
		})
		return p, nil
	})
}

// send performs the HTTP exchange off the loop and settles on it.
func (w *Web) send(req *Request, body []byte, resolve, reject func(jsrt.Value)) {
	rt := w.rt
	var rd io.Reader
	if req.Body != nil && !req.Body.null {
		rd = bytes.NewReader(body)
	}
	httpReq, err := http.NewRequest(req.Method, req.URL, rd)
	if err != nil {
		reject(rt.NewTypeError("fetch failed: " + err.Error()))
		return
	}
	httpReq.Header = req.HeaderList().HTTP()
	client := *w.client
	if req.Redirect == "manual" || req.Redirect == "error" {
		client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	}
	go func() {
		resp, err := client.Do(httpReq)
		var data []byte
		if err == nil {
			data, err = io.ReadAll(io.LimitReader(resp.Body, maxFetchBody))
			_ = resp.Body.Close()
		}
		rt.Post(func() {
			if err != nil {
				reject(rt.NewTypeError("fetch failed: " + err.Error()))
				return
			}
			if req.Redirect == "error" && resp.StatusCode >= 300 && resp.StatusCode < 400 {
				reject(rt.NewTypeError("fetch failed: redirect mode is set to error"))
				return
			}
			r := w.ResponseFromGo(resp.StatusCode, resp.Header, data)
			st := r.Internal.(*Response)
			st.URL = resp.Request.URL.String()
			st.Redirected = resp.Request.URL.String() != req.URL
			resolve(r)
		})
	}()
}
