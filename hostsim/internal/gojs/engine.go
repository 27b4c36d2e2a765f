package gojs

import (
	"context"
	"fmt"

	"github.com/tetratelabs/wazero"

	"github.com/emojisearch/emojisearch/hostsim/internal/jsrt"
)

// Engine compiles a Go js/wasm module once and instantiates it many times.
// With a cache directory, compiled code survives the process, which is what
// keeps hostsim's start-up under a second.
type Engine struct {
	runtime  wazero.Runtime
	compiled wazero.CompiledModule
}

// HostModule adds extra imports the module needs (such as syumai's
// `workers.ready`) to the engine's runtime.
type HostModule func(ctx context.Context, r wazero.Runtime) error

// NewEngine compiles wasm. cacheDir may be empty for no disk cache.
func NewEngine(ctx context.Context, wasm []byte, cacheDir string, hosts ...HostModule) (*Engine, error) {
	cfg := wazero.NewRuntimeConfig().WithCloseOnContextDone(false)
	if cacheDir != "" {
		cache, err := wazero.NewCompilationCacheWithDir(cacheDir)
		if err != nil {
			return nil, fmt.Errorf("gojs: compilation cache: %w", err)
		}
		cfg = cfg.WithCompilationCache(cache)
	}
	r := wazero.NewRuntimeWithConfig(ctx, cfg)
	if err := Export(ctx, r); err != nil {
		_ = r.Close(ctx)
		return nil, err
	}
	for _, h := range hosts {
		if err := h(ctx, r); err != nil {
			_ = r.Close(ctx)
			return nil, err
		}
	}
	compiled, err := r.CompileModule(ctx, wasm)
	if err != nil {
		_ = r.Close(ctx)
		return nil, fmt.Errorf("gojs: compile: %w", err)
	}
	return &Engine{runtime: r, compiled: compiled}, nil
}

// Instantiate creates a fresh, not yet started Go instance in realm rt.
// Call it on rt's loop.
func (e *Engine) Instantiate(ctx context.Context, rt *jsrt.Runtime) (*Instance, error) {
	mod, err := e.runtime.InstantiateModule(ctx, e.compiled, wazero.NewModuleConfig().WithName("").WithStartFunctions())
	if err != nil {
		return nil, fmt.Errorf("gojs: instantiate: %w", err)
	}
	inst, err := New(rt, mod)
	if err != nil {
		_ = mod.Close(ctx)
		return nil, err
	}
	return inst, nil
}

// Close releases compiled code and every instance.
func (e *Engine) Close(ctx context.Context) error { return e.runtime.Close(ctx) }
