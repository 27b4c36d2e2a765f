//go:build js && wasm && diag

package main

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/emojisearch/emojisearch/service/httpx"
)

// failing names the pack and vector files this instance pretends it cannot
// load, so e2e tests can prove the "a locale pack or vector file did not
// load" answers on both targets.
var failing sync.Map

func init() {
	assetFault = func(name string) error {
		if _, ok := failing.Load(name); ok {
			return fmt.Errorf("diag: %s made to fail", name)
		}
		return nil
	}
	extraRoutes = append(extraRoutes, func(r *httpx.Router) {
		// PUT /__diag/faults/assets?files=a,b fails those files; DELETE clears.
		r.HandleFunc(http.MethodPut, "/__diag/faults/assets", func(w http.ResponseWriter, r *http.Request) {
			names := strings.Split(r.URL.Query().Get("files"), ",")
			for _, n := range names {
				failing.Store(n, true)
			}
			httpx.JSON(w, http.StatusOK, map[string]any{"failing": names})
		})
		r.HandleFunc(http.MethodDelete, "/__diag/faults/assets", func(w http.ResponseWriter, _ *http.Request) {
			failing.Clear()
			httpx.JSON(w, http.StatusOK, map[string]bool{"cleared": true})
		})
	})
}

// offset moves the search service's clock (nanoseconds), so culture windows
// can be tested on any day.
var offset atomic.Int64

func init() {
	clockOffset = func() time.Duration { return time.Duration(offset.Load()) }
	extraRoutes = append(extraRoutes, func(r *httpx.Router) {
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
			offset.Store(int64(target.Sub(now)))
			httpx.JSON(w, http.StatusOK, map[string]string{"day": day.Format(time.DateOnly)})
		})
		r.HandleFunc(http.MethodDelete, "/__diag/clock", func(w http.ResponseWriter, _ *http.Request) {
			offset.Store(0)
			httpx.JSON(w, http.StatusOK, map[string]bool{"reset": true})
		})
	})
}
