package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// client never follows redirects: a redirect is an answer of the API
// (the waitlist form's 303), checked against the contract as it is.
var client = &http.Client{Timeout: 30 * time.Second,
	CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

type reply struct {
	Status int
	Header http.Header
	Body   []byte
}

// JSON decodes the body into a generic map.
func (r reply) JSON(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal(r.Body, &m), string(r.Body))
	return m
}

// call sends one request to the target; headers alternate name, value.
func call(t *testing.T, method, path string, body []byte, headers ...string) reply {
	t.Helper()
	return callAt(t, tgt.base, method, path, body, headers...)
}

// callAt is call to another instance of the Worker at base.
func callAt(t *testing.T, base, method, path string, body []byte, headers ...string) reply {
	t.Helper()
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequest(method, base+path, rd)
	require.NoError(t, err)
	// Each call comes from its own client address unless the test names
	// one, so the anonymous 30/min limit per IP only bites where a test
	// asks for it (both runtimes take the edge's CF-Connecting-IP as is).
	req.Header.Set("CF-Connecting-IP", fmt.Sprintf("2001:db8::%x:%x", rand.IntN(1<<16), rand.IntN(1<<16)))
	for i := 0; i+1 < len(headers); i += 2 {
		if headers[i] == "Host" {
			req.Host = headers[i+1]
			continue
		}
		req.Header.Set(headers[i], headers[i+1])
	}
	res, err := client.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	checkContract(t, req, body, res, b)
	return reply{Status: res.StatusCode, Header: res.Header, Body: b}
}

func get(t *testing.T, path string, headers ...string) reply {
	t.Helper()
	return call(t, http.MethodGet, path, nil, headers...)
}

// postJSON sends v as JSON.
func postJSON(t *testing.T, path string, v any) reply {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return call(t, http.MethodPost, path, b, "Content-Type", "application/json")
}

// eventually polls cond until it holds or the deadline passes. It polls
// about a hundred times over d (every 50 to 500 ms): many cond make a
// request, and a minute's wait polled every 50 ms would send a thousand
// of them to the one instance the parallel tests share.
func eventually(t *testing.T, d time.Duration, cond func() bool, msg string) {
	t.Helper()
	deadline := time.Now().Add(d)
	every := min(max(d/100, 50*time.Millisecond), 500*time.Millisecond)
	for time.Now().Before(deadline) {
		if cond() {
			return
		}
		time.Sleep(every)
	}
	t.Fatal(msg)
}
