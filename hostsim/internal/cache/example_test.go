package cache_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"time"

	"github.com/emojisearch/emojisearch/hostsim/internal/cache"
)

func ExampleCache_Match() {
	dir, _ := os.MkdirTemp("", "cache-example")
	defer os.RemoveAll(dir)
	now := time.Unix(1_800_000_000, 0)
	caches, _ := cache.OpenWithConfig(dir, cache.NewConfig().WithClock(func() time.Time { return now }))
	c := caches.Default()
	ctx := context.Background()
	req := cache.Request{Method: "GET", URL: "https://emoji.example/api/search?q=cat"}

	_ = c.Put(ctx, req, cache.Response{Status: 200, Header: http.Header{"Cache-Control": {"max-age=60"}}, Body: []byte("[]")})
	now = now.Add(15 * time.Second)
	resp, hit, _ := c.Match(ctx, req, cache.MatchOptions{})
	fmt.Println(hit, resp.Status, resp.Header.Get("Cf-Cache-Status"), resp.Header.Get("Age"))

	_ = c.Put(ctx, req, cache.Response{Status: 200, Header: http.Header{"Cache-Control": {"no-store"}}, Body: []byte("x")})
	resp, _, _ = c.Match(ctx, req, cache.MatchOptions{})
	fmt.Println(string(resp.Body)) // an uncacheable put changes nothing

	now = now.Add(time.Minute)
	_, hit, _ = c.Match(ctx, req, cache.MatchOptions{})
	fmt.Println(hit)
	// Output:
	// true 200 HIT 15
	// []
	// false
}
