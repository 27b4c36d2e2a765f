//go:build !js

package webhooks_test

import (
	"net/http"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/service/webhooks"
	"github.com/emojisearch/emojisearch/service/webhookurl/webhookurltest"
)

// recorder answers 204 to every request and remembers its URL: the URL
// tables hold public hosts that this test must not reach.
type recorder struct {
	mu   sync.Mutex
	urls []string
}

func (r *recorder) Do(req *http.Request) (*http.Response, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.urls = append(r.urls, req.URL.String())
	return &http.Response{StatusCode: 204, Body: http.NoBody, Header: http.Header{}}, nil
}

// Every URL of the rule tables is classified as spec 2 says at save (the
// create and patch routes) and at delivery (a URL already stored is
// checked again before the attempt), in production.
func TestURLTablesAtSaveAndDelivery(t *testing.T) {
	rec := &recorder{}
	e := newEnv(t, func(c webhooks.Config) webhooks.Config { return c.WithDevelopment(false).WithDoer(rec) })
	c, _, app := e.app("owner", "scale")
	path := "/api/apps/" + app + "/webhooks"
	for _, tc := range webhookurltest.Refused {
		a := e.call(c, "POST", path, map[string]any{"url": tc.URL})
		require.Equal(t, 400, a.Code, tc.URL)
		require.Equal(t, "url", a.Body["error"].(map[string]any)["field"], tc.URL)
	}
	for _, tc := range webhookurltest.Allowed {
		a := e.call(c, "POST", path, map[string]any{"url": tc.URL})
		require.Equal(t, 201, a.Code, tc.URL)
		wh := a.Body["webhook"].(map[string]any)
		require.Equal(t, tc.Want, wh["url"], tc.URL)
		require.Equal(t, 200, e.call(c, "DELETE", "/api/webhooks/"+wh["id"].(string), nil).Code)
	}
	a := e.call(c, "POST", path, map[string]any{"url": "https://hooks.example.com/"})
	require.Equal(t, 201, a.Code)
	id := a.Body["webhook"].(map[string]any)["id"].(string)
	for _, tc := range webhookurltest.Refused {
		require.Equal(t, 400, e.call(c, "PATCH", "/api/webhooks/"+id, map[string]any{"url": tc.URL}).Code, tc.URL)
	}
	// At delivery: the stored URL is checked again before every attempt.
	for _, tc := range webhookurltest.Refused {
		e.sql("UPDATE webhooks SET url = ? WHERE id = ?", tc.URL, id)
		d := e.call(c, "POST", "/api/webhooks/"+id+"/test", nil).Body["delivery"].(map[string]any)
		require.Nil(t, d["status"], tc.URL)
		require.Equal(t, false, d["ok"], tc.URL)
	}
	require.Empty(t, rec.urls, "no refused URL was called")
	for _, tc := range webhookurltest.Allowed {
		e.sql("UPDATE webhooks SET url = ? WHERE id = ?", tc.URL, id)
		d := e.call(c, "POST", "/api/webhooks/"+id+"/test", nil).Body["delivery"].(map[string]any)
		require.EqualValues(t, 204, d["status"], tc.URL)
		require.Equal(t, tc.Want, rec.urls[len(rec.urls)-1], "the canonical URL is what is called")
	}
}
