package hostsim

import (
	"context"
	"fmt"
	"io"
	"path/filepath"

	"github.com/emojisearch/emojisearch/hostsim/internal/assets"
	"github.com/emojisearch/emojisearch/hostsim/internal/binding"
	"github.com/emojisearch/emojisearch/hostsim/internal/cache"
	"github.com/emojisearch/emojisearch/hostsim/internal/jsrt"
	"github.com/emojisearch/emojisearch/hostsim/internal/kv"
	"github.com/emojisearch/emojisearch/hostsim/internal/webapi"
)

// closerFunc adapts a func to io.Closer.
type closerFunc func() error

func (f closerFunc) Close() error { return f() }

// openBindings opens a store for every binding of wrangler.toml, under the
// state folder laid out like wrangler's `--persist-to` (one folder per
// kind), and returns the builder of the Worker's env object.
func (s *Simulator) openBindings(ctx context.Context) (func(*jsrt.Runtime, *webapi.Web) (*jsrt.Object, error), error) {
	w := s.wcfg
	state := s.cfg.stateDir
	type bind struct {
		name string
		make func(binding.Realm) *jsrt.Object
	}
	var binds []bind

	for _, ns := range w.KVNamespaces {
		dir := filepath.Join(state, "kv", safeName(firstNonEmpty(ns.ID, ns.Binding)))
		s.freshStore("KV "+ns.Binding, dir)
		store, err := kv.Open(dir)
		if err != nil {
			return nil, fmt.Errorf("hostsim: KV %s: %w", ns.Binding, err)
		}
		binds = append(binds, bind{ns.Binding, func(r binding.Realm) *jsrt.Object { return r.KV(store) }})
	}
	if a := w.Assets; a != nil {
		opts := assets.Options{}.
			WithHTMLHandling(a.HTMLHandling).
			WithNotFoundHandling(a.NotFoundHandling).
			WithRunWorkerFirst(a.RunWorkerFirst.All).
			WithWorkerFirst(a.RunWorkerFirst.Patterns...).
			WithNavigationFallback(assets.NavigationFallbackFor(w.CompatibilityDate, w.CompatibilityFlags))
		srv, err := assets.New(a.Directory, opts)
		if err != nil {
			return nil, err
		}
		s.assets = srv
		if a.Binding != "" {
			binds = append(binds, bind{a.Binding, func(r binding.Realm) *jsrt.Object { return r.Assets(srv) }})
		}
	}
	if w.AI != nil && s.cfg.aiModel != nil {
		model := s.cfg.aiModel
		binds = append(binds, bind{w.AI.Binding, func(r binding.Realm) *jsrt.Object { return r.AI(model) }})
	} else if w.AI != nil {
		fmt.Fprintf(s.cfg.stderr, "hostsim: [ai] binding %s has no local model; leaving it unbound\n", w.AI.Binding)
	}
	more, err := s.openDataBindings(ctx)
	if err != nil {
		return nil, err
	}
	for _, b := range more {
		binds = append(binds, bind{b.name, b.make})
	}

	s.freshStore("Cache API", filepath.Join(state, "cache"))
	caches, err := cache.Open(filepath.Join(state, "cache"))
	if err != nil {
		return nil, fmt.Errorf("hostsim: Cache API: %w", err)
	}

	return func(rt *jsrt.Runtime, web *webapi.Web) (*jsrt.Object, error) {
		realm := binding.Realm{RT: rt, Web: web}
		// The Cache API is a global, not an env binding.
		rt.Global.Define("caches", realm.Caches(caches))
		env := rt.NewObject()
		for k, v := range w.Vars {
			env.Define(k, rt.FromGo(v))
		}
		for _, b := range binds {
			env.Define(b.name, b.make(realm))
		}
		return env, nil
	}, nil
}

func (s *Simulator) addCloser(c io.Closer) { s.closers = append(s.closers, c) }

func firstNonEmpty(vals ...string) string {
	for _, v := range vals {
		if v != "" {
			return v
		}
	}
	return ""
}

// safeName keeps an id usable as a folder name.
func safeName(id string) string {
	out := []byte(id)
	for i, c := range out {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			out[i] = '_'
		}
	}
	if len(out) == 0 || string(out) == "." || string(out) == ".." {
		return "_"
	}
	return string(out)
}
