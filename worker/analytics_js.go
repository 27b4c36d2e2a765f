//go:build js && wasm

package main

import (
	"context"
	"fmt"
	"time"

	"github.com/emojisearch/emojisearch/service/analytics"
	"github.com/emojisearch/emojisearch/service/store"
	"github.com/emojisearch/emojisearch/service/writebehind"
)

// searchAnalytics counts keyed searches of this instance (service/
// analytics); nil when D1 is not bound. main sets it before the search
// service is built.
var searchAnalytics *analytics.Counter

// newAnalytics returns the instance's counter over D1, writing through the
// instance's write-behind (whose error hook logs failures: the counter's
// errors name row counts, never query text, which never reaches logs).
func newAnalytics(db store.DB, writer *writebehind.Writer) *analytics.Counter {
	c, err := analytics.New(analytics.Config{Writer: analytics.NewStore(db), WriteBehind: writer})
	if err != nil {
		fmt.Println("worker: analytics unavailable:", err)
		return nil
	}
	return c
}

// nightlyAnalytics deletes query rows past each plan's retention (spec 2
// Limits); the nightly's write-behind flush has written the counts.
func nightlyAnalytics(db store.DB) func(ctx context.Context, at time.Time) error {
	return func(ctx context.Context, at time.Time) error {
		_, err := analytics.NewStore(db).Prune(ctx, at)
		return err
	}
}
