//go:build js && wasm

package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/emojisearch/emojisearch/service/chatimport"
	"github.com/emojisearch/emojisearch/service/dashboard"
	"github.com/emojisearch/emojisearch/service/emojistore"
	"github.com/emojisearch/emojisearch/service/store"
	"github.com/emojisearch/emojisearch/worker/internal/cf/r2"
	"github.com/emojisearch/emojisearch/worker/internal/jsutil"
)

// newChatImport wires the chat-provider imports over D1 and OBJECTS (the
// one emoji writer; changed is told after every stored emoji) and the
// Workers fetch. IMPORT_SLACK_API, IMPORT_DISCORD_API and
// IMPORT_DISCORD_CDN point it at fake providers, in development only (the
// e2e suite); production always talks to the real providers.
func newChatImport(db store.DB, environment string, changed func(appID string)) (*chatimport.Importer, error) {
	logf := func(format string, args ...any) { fmt.Printf(format+"\n", args...) }
	var objs emojistore.Objects
	if bucket, err := r2.Open("OBJECTS"); err == nil {
		objs = objects{bucket}
	}
	cfg := chatimport.NewConfig(db, emojistore.New(db, objs, time.Now, logf).WithChanged(changed), fetchDoer{}).WithLog(logf)
	env := jsutil.Env()
	v := func(name string) string { return strings.TrimSpace(jsutil.String(env.Get(name))) }
	if environment == dashboard.EnvDevelopment && v("IMPORT_SLACK_API") != "" {
		cfg = cfg.WithProviders(v("IMPORT_SLACK_API"), v("IMPORT_DISCORD_API"), v("IMPORT_DISCORD_CDN"))
	}
	return chatimport.New(cfg)
}
