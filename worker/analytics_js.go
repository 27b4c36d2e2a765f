//go:build js && wasm

package main

import (
	"context"
	"fmt"
	"time"

	"github.com/emojisearch/emojisearch/service/analytics"
	"github.com/emojisearch/emojisearch/service/store"
)

// searchAnalytics counts keyed searches of this instance (service/
// analytics); nil when D1 is not bound. main sets it before the search
// service is built.
var searchAnalytics *analytics.Counter

// newAnalytics returns the instance's counter over D1. Flush errors are
// logged by kind only: rows carry query text, which never reaches logs.
func newAnalytics(db store.DB) *analytics.Counter {
	c, err := analytics.New(analytics.Config{
		Writer:  analytics.NewStore(db),
		OnError: func(error) { fmt.Println("worker: analytics flush failed; counts kept for the next flush") },
	})
	if err != nil {
		fmt.Println("worker: analytics unavailable:", err)
		return nil
	}
	return c
}

// nightlyAnalytics writes the instance's counts and deletes query rows
// past each plan's retention (spec 2 Limits).
func nightlyAnalytics(db store.DB) func(ctx context.Context, at time.Time) error {
	return func(ctx context.Context, at time.Time) error {
		var err error
		if searchAnalytics != nil {
			err = searchAnalytics.Flush(ctx)
		}
		if err != nil {
			return err
		}
		_, err = analytics.NewStore(db).Prune(ctx, at)
		return err
	}
}
