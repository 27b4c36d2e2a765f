//go:build js && wasm && !diag

package main

import "github.com/emojisearch/emojisearch/service/app"

// diagnose adds nothing outside the test build (diag_js.go).
func diagnose(*app.Platform) {}
