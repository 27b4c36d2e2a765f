package gojs_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/hostsim/internal/gojs"
	"github.com/emojisearch/emojisearch/hostsim/internal/jsrt"
)

var (
	buildOnce sync.Once
	builtWasm []byte
	buildErr  error
)

// basicWasm builds testdata/basic for js/wasm once per test binary.
func basicWasm(t *testing.T) []byte {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "gojs-basic")
		if err != nil {
			buildErr = err
			return
		}
		out := filepath.Join(dir, "basic.wasm")
		cmd := exec.Command("go", "build", "-o", out, "./testdata/basic")
		cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
		if msg, err := cmd.CombinedOutput(); err != nil {
			buildErr = err
			builtWasm = msg
			return
		}
		builtWasm, buildErr = os.ReadFile(out)
	})
	require.NoError(t, buildErr, string(builtWasm))
	return builtWasm
}

type harness struct {
	rt      *jsrt.Runtime
	inst    *gojs.Instance
	reports chan []jsrt.Value
	stdout  *bytes.Buffer
	exited  chan int
}

func start(t *testing.T) *harness {
	t.Helper()
	ctx := context.Background()
	eng, err := gojs.NewEngine(ctx, basicWasm(t), filepath.Join(os.TempDir(), "gojs-test-cache"))
	require.NoError(t, err)
	t.Cleanup(func() { _ = eng.Close(ctx) })

	h := &harness{rt: jsrt.New(), reports: make(chan []jsrt.Value, 64), stdout: &bytes.Buffer{}, exited: make(chan int, 1)}
	h.rt.SetConsole(jsrt.Console{Stdout: h.stdout, Stderr: h.stdout})
	h.rt.Method(h.rt.Global, "report", func(_ jsrt.Value, args []jsrt.Value) (jsrt.Value, error) {
		h.reports <- append([]jsrt.Value(nil), args...)
		return jsrt.Undefined, nil
	})
	go h.rt.Run(ctx)
	t.Cleanup(h.rt.Close)

	errc := make(chan error, 1)
	h.rt.Post(func() {
		inst, err := eng.Instantiate(ctx, h.rt)
		if err != nil {
			errc <- err
			return
		}
		h.inst = inst
		inst.OnExit(func(code int, _ error) { h.exited <- code })
		errc <- inst.Start(ctx, []string{"js"}, nil)
	})
	require.NoError(t, <-errc)
	return h
}

func (h *harness) next(t *testing.T) []jsrt.Value {
	t.Helper()
	select {
	case r := <-h.reports:
		return r
	case <-time.After(10 * time.Second):
		t.Fatal("no report from the Go program")
		return nil
	}
}

// onLoop runs fn on the loop and waits for it.
func (h *harness) onLoop(fn func()) {
	done := make(chan struct{})
	h.rt.Post(func() { fn(); close(done) })
	<-done
}

func TestBasicProgram(t *testing.T) {
	h := start(t)
	require.Equal(t, []jsrt.Value{"resolved", 42.0, true}, h.next(t))
	require.Equal(t, []jsrt.Value{"rejected", "boom", false}, h.next(t))
	require.Equal(t, []jsrt.Value{"slept", true}, h.next(t))
	require.Equal(t, []jsrt.Value{"bytes", "[1 2 3]", 3.0}, h.next(t))
	require.Equal(t, []jsrt.Value{"caught", "true"}, h.next(t))
	require.Equal(t, []jsrt.Value{"entries", 2.0, 2.5}, h.next(t))
	require.Equal(t, []jsrt.Value{"ready"}, h.next(t))
	require.Contains(t, h.stdout.String(), "hello from go")

	var sum jsrt.Value
	h.onLoop(func() {
		var err error
		sum, err = h.rt.CallMethod(h.rt.Global, "add", 2.0, 3.0)
		require.NoError(t, err)
	})
	require.Equal(t, 5.0, sum)

	got := make(chan jsrt.Value, 1)
	h.onLoop(func() {
		cb := h.rt.NewFunction("cb", func(_ jsrt.Value, args []jsrt.Value) (jsrt.Value, error) {
			got <- args[0]
			return jsrt.Undefined, nil
		})
		_, err := h.rt.CallMethod(h.rt.Global, "sleepThenCall", cb)
		require.NoError(t, err)
	})
	select {
	case v := <-got:
		require.Equal(t, "later", v)
	case <-time.After(5 * time.Second):
		t.Fatal("callback after a Go timer never came")
	}
}

func TestExitIsReported(t *testing.T) {
	h := start(t)
	for r := h.next(t); r[0] != "ready"; r = h.next(t) {
	}
	h.onLoop(func() { _, _ = h.rt.CallMethod(h.rt.Global, "exit", 3.0) })
	select {
	case code := <-h.exited:
		require.Equal(t, 3, code)
	case <-time.After(5 * time.Second):
		t.Fatal("exit not reported")
	}
	h.onLoop(func() {
		require.True(t, h.inst.Exited())
		_, err := h.rt.CallMethod(h.rt.Global, "add", 1.0, 1.0)
		require.Error(t, err, "calling into an exited program throws instead of hanging")
	})
}

func TestPanicKillsOnlyTheInstance(t *testing.T) {
	h := start(t)
	for r := h.next(t); r[0] != "ready"; r = h.next(t) {
	}
	h.onLoop(func() { _, _ = h.rt.CallMethod(h.rt.Global, "crash") })
	select {
	case code := <-h.exited:
		require.Equal(t, 2, code)
	case <-time.After(5 * time.Second):
		t.Fatal("panic not reported as exit")
	}
	require.Contains(t, h.stdout.String(), "crash requested")
}
