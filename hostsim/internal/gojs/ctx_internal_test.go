package gojs

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/hostsim/internal/jsrt"
)

// Regression (issue 2, found by the overhead benchmark): every event
// wrapped the instance's context once more, so each import walked a longer
// chain and requests got slower the longer an instance lived.
func TestContextIsNotRewrappedPerEvent(t *testing.T) {
	out := filepath.Join(t.TempDir(), "basic.wasm")
	cmd := exec.Command("go", "build", "-o", out, "./testdata/basic")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	msg, err := cmd.CombinedOutput()
	require.NoError(t, err, string(msg))
	wasm, err := os.ReadFile(out)
	require.NoError(t, err)

	ctx := context.Background()
	eng, err := NewEngine(ctx, wasm, filepath.Join(os.TempDir(), "gojs-test-cache"))
	require.NoError(t, err)
	defer eng.Close(ctx)
	rt := jsrt.New()
	rt.SetConsole(jsrt.Console{Stdout: os.Stderr, Stderr: os.Stderr})
	ready := make(chan struct{})
	rt.Method(rt.Global, "report", func(_ jsrt.Value, args []jsrt.Value) (jsrt.Value, error) {
		if args[0] == "ready" {
			close(ready)
		}
		return jsrt.Undefined, nil
	})
	go rt.Run(ctx)
	defer rt.Close()

	var inst *Instance
	rt.Post(func() {
		inst, err = eng.Instantiate(ctx, rt)
		require.NoError(t, err)
		require.NoError(t, inst.Start(ctx, []string{"js"}, nil))
	})
	<-ready
	ctxs := make(chan context.Context, 2)
	for i := 0; i < 50; i++ {
		done := make(chan struct{})
		rt.Post(func() {
			_, err := rt.CallMethod(rt.Global, "add", 1.0, 2.0)
			require.NoError(t, err)
			if i == 0 || i == 49 {
				ctxs <- inst.ctx
			}
			close(done)
		})
		<-done
	}
	require.True(t, <-ctxs == <-ctxs, "the same context serves every event")
}
