//go:build linux

package bench

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/emojisearch/emojisearch/hostsim"
	"github.com/emojisearch/emojisearch/service/auth/authtest"
)

// serve sends one request to the simulator in process.
func serve(b *testing.B, sim *hostsim.Simulator, method, target string, body any, headers ...string) *httptest.ResponseRecorder {
	var rd *bytes.Reader
	if body != nil {
		raw, err := json.Marshal(body)
		if err != nil {
			b.Fatal(err)
		}
		rd = bytes.NewReader(raw)
	} else {
		rd = bytes.NewReader(nil)
	}
	req := httptest.NewRequest(method, "http://localhost"+target, rd)
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	rec := httptest.NewRecorder()
	sim.ServeHTTP(rec, req)
	return rec
}

// keyFor signs in through the dashboard with a token of issuer, creates a
// production app and a publishable key for origin, and returns the key.
func keyFor(b *testing.B, sim *hostsim.Simulator, issuer *authtest.Issuer, origin string) string {
	return keyForToken(b, sim, issuer.Token(b, nil), origin)
}

// keyForToken is keyFor as the account of a session token.
func keyForToken(b *testing.B, sim *hostsim.Simulator, token, origin string) string {
	auth := []string{"Authorization", "Bearer " + token}
	if rec := serve(b, sim, "GET", "/api/me", nil, auth...); rec.Code != 200 {
		b.Fatalf("GET /api/me: %d %s", rec.Code, rec.Body)
	}
	rec := serve(b, sim, "POST", "/api/apps", map[string]any{"name": "bench", "environment": "production"}, auth...)
	var app struct {
		App struct{ ID string } `json:"app"`
	}
	if rec.Code != 201 || json.Unmarshal(rec.Body.Bytes(), &app) != nil {
		b.Fatalf("POST /api/apps: %d %s", rec.Code, rec.Body)
	}
	rec = serve(b, sim, "POST", "/api/apps/"+app.App.ID+"/keys", map[string]any{"kind": "publishable", "allowedOrigins": []string{origin}}, auth...)
	var key struct {
		FullKey string `json:"fullKey"`
	}
	if rec.Code != 201 || json.Unmarshal(rec.Body.Bytes(), &key) != nil {
		b.Fatalf("POST keys: %d %s", rec.Code, rec.Body)
	}
	return key.FullKey
}

// BenchmarkSearchCached measures a cached GET /v1/search in hostsim,
// anonymous and with a publishable key (resolved from the 60 s key cache,
// counted by the meter, flushed through waitUntil about every 10 s): the
// difference of the medians is the metering and key-rule overhead (issue
// bar: <= 1 ms median). No embedding backend is bound; the query is put in
// the shared cache first, so both paths answer from it. BENCH_VARIANTS
// pairs builds as in BenchmarkHealth.
func BenchmarkSearchCached(b *testing.B) {
	eachVariant(b, searchCached)
}

func searchCached(b *testing.B, variant string) {
	issuer, err := authtest.StartIssuer()
	if err != nil {
		b.Fatal(err)
	}
	sim := newSimOf(b, variant,
		"CLERK_JWT_KEY", issuer.PublicKeyPEM,
		"CLERK_ISSUER", issuer.Issuer,
		"CLERK_AUTHORIZED_PARTIES", issuer.AuthorizedParty)
	const origin = "https://app.bench.test"
	key := keyFor(b, sim, issuer, origin)
	const target = "/v1/search?q=joy&limit=10"
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(serve(b, sim, "GET", target, nil).Body.String(), `"cached":true`) {
		if time.Now().After(deadline) {
			b.Fatal("the query never reached the shared cache")
		}
		time.Sleep(50 * time.Millisecond)
	}
	cases := []struct {
		name    string
		target  string
		headers []string
	}{
		{"anonymous", target, nil},
		{"keyed", target + "&key=" + url.QueryEscape(key), []string{"Origin", origin}},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			var lat []time.Duration
			for b.Loop() {
				start := time.Now()
				rec := serve(b, sim, "GET", c.target, nil, c.headers...)
				lat = append(lat, time.Since(start))
				if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `"cached":true`) {
					b.Fatalf("%s: %d %s", c.name, rec.Code, rec.Body)
				}
			}
			slices.Sort(lat)
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
		})
	}
}
