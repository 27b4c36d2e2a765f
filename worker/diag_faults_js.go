//go:build js && wasm && diag

package main

import (
	"context"
	"fmt"
	"net/http"
	"path"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/emojisearch/emojisearch/service/httpx"
	"github.com/emojisearch/emojisearch/service/staticfiles"
)

// faults are the test build's injected failures, so e2e tests can prove
// the "a locale pack or vector file did not load" answers and the culture
// windows of any day on both targets.
type faults struct {
	// failing names the static files this instance pretends it cannot load.
	failing sync.Map
	// offset moves the service's clock (nanoseconds).
	offset atomic.Int64
}

// assets fails the named files (by their last path segment) and passes the
// rest to src.
func (f *faults) assets(src staticfiles.Source) staticfiles.Source {
	return func(ctx context.Context, method, p string, header http.Header) (*staticfiles.File, error) {
		if _, ok := f.failing.Load(path.Base(p)); ok {
			return nil, fmt.Errorf("diag: %s made to fail", path.Base(p))
		}
		return src(ctx, method, p, header)
	}
}

// clock is now moved by the offset.
func (f *faults) clock(now func() time.Time) func() time.Time {
	return func() time.Time { return now().Add(time.Duration(f.offset.Load())) }
}

func (f *faults) routes(r *httpx.Router) {
	// PUT /__diag/faults/assets?files=a,b fails those files; DELETE clears.
	r.HandleFunc(http.MethodPut, "/__diag/faults/assets", func(w http.ResponseWriter, r *http.Request) {
		names := strings.Split(r.URL.Query().Get("files"), ",")
		for _, n := range names {
			f.failing.Store(n, true)
		}
		httpx.JSON(w, http.StatusOK, map[string]any{"failing": names})
	})
	r.HandleFunc(http.MethodDelete, "/__diag/faults/assets", func(w http.ResponseWriter, _ *http.Request) {
		f.failing.Clear()
		httpx.JSON(w, http.StatusOK, map[string]bool{"cleared": true})
	})
	// PUT /__diag/clock?day=2026-11-25 moves the clock to that UTC day
	// (same time of day); DELETE puts it back.
	r.HandleFunc(http.MethodPut, "/__diag/clock", func(w http.ResponseWriter, r *http.Request) {
		day, err := time.Parse(time.DateOnly, r.URL.Query().Get("day"))
		if err != nil {
			httpx.Error(w, http.StatusBadRequest, err.Error())
			return
		}
		now := time.Now().UTC()
		target := day.Add(now.Sub(now.Truncate(24 * time.Hour)))
		f.offset.Store(int64(target.Sub(now)))
		httpx.JSON(w, http.StatusOK, map[string]string{"day": day.Format(time.DateOnly)})
	})
	r.HandleFunc(http.MethodDelete, "/__diag/clock", func(w http.ResponseWriter, _ *http.Request) {
		f.offset.Store(0)
		httpx.JSON(w, http.StatusOK, map[string]bool{"reset": true})
	})
}
