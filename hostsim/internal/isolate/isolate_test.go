package isolate_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/hostsim/internal/gojs"
	"github.com/emojisearch/emojisearch/hostsim/internal/isolate"
	"github.com/emojisearch/emojisearch/hostsim/internal/jsrt"
	"github.com/emojisearch/emojisearch/hostsim/internal/webapi"
)

func buildEcho(t *testing.T) []byte {
	t.Helper()
	out := filepath.Join(t.TempDir(), "echo.wasm")
	cmd := exec.Command("go", "build", "-o", out, "./testdata/echo")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	msg, err := cmd.CombinedOutput()
	require.NoError(t, err, string(msg))
	b, err := os.ReadFile(out)
	require.NoError(t, err)
	return b
}

func newIsolate(t *testing.T, timeout time.Duration) *isolate.Isolate {
	t.Helper()
	ctx := context.Background()
	eng, err := gojs.NewEngine(ctx, buildEcho(t), filepath.Join(os.TempDir(), "isolate-test-cache"), isolate.ReadyHost)
	require.NoError(t, err)
	t.Cleanup(func() { _ = eng.Close(ctx) })
	iso, err := isolate.New(ctx, isolate.Config{
		Engine:  eng,
		Timeout: timeout,
		Stdout:  os.Stdout,
		Stderr:  os.Stderr,
		Env: func(rt *jsrt.Runtime, _ *webapi.Web) (*jsrt.Object, error) {
			env := rt.NewObject()
			env.Define("GREETING", "hi")
			return env, nil
		},
	})
	require.NoError(t, err)
	t.Cleanup(iso.Close)
	return iso
}

func fetch(t *testing.T, iso *isolate.Isolate, path string, body []byte) (*isolate.Response, <-chan struct{}, error) {
	t.Helper()
	return iso.Fetch(context.Background(), isolate.Request{Method: "POST", URL: "http://localhost" + path, Body: body})
}

func TestOneInstanceServesManyRequests(t *testing.T) {
	iso := newIsolate(t, 5*time.Second)
	for i := 1; i <= 3; i++ {
		res, settled, err := fetch(t, iso, "/x", []byte("hello"))
		require.NoError(t, err)
		<-settled
		assert.Equal(t, 200, res.Status)
		assert.Contains(t, string(res.Body), `POST /x body="hello"`)
		assert.Contains(t, string(res.Body), "greeting=hi")
		assert.Contains(t, string(res.Body), "runs="+string(rune('0'+i)), "state survives between requests")
	}
	assert.Equal(t, 1, iso.Starts())
}

func TestConcurrentRequests(t *testing.T) {
	iso := newIsolate(t, 10*time.Second)
	var wg sync.WaitGroup
	errs := make(chan error, 100)
	for i := 0; i < 100; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, settled, err := fetch(t, iso, "/c", nil)
			if err == nil && res.Status != 200 {
				err = assert.AnError
			}
			if err == nil {
				<-settled
			}
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	assert.Equal(t, 1, iso.Starts())
}

func TestWaitUntilSettlesAfterResponse(t *testing.T) {
	iso := newIsolate(t, 5*time.Second)
	res, settled, err := fetch(t, iso, "/background", nil)
	require.NoError(t, err)
	require.Equal(t, 200, res.Status)
	select {
	case <-settled:
		t.Fatal("settled before the background work ran")
	default:
	}
	select {
	case <-settled:
	case <-time.After(3 * time.Second):
		t.Fatal("background work never settled")
	}
}

func TestPanicRestartsInstance(t *testing.T) {
	iso := newIsolate(t, 5*time.Second)
	_, _, err := fetch(t, iso, "/ok", nil)
	require.NoError(t, err)
	_, settled, err := fetch(t, iso, "/panic", nil)
	require.Error(t, err, "the request in flight fails instead of hanging")
	<-settled
	res, _, err := fetch(t, iso, "/after", nil)
	require.NoError(t, err)
	assert.Contains(t, string(res.Body), "runs=1", "a fresh instance serves the next request")
	assert.Equal(t, 2, iso.Starts())
}

func TestHungRequestTimesOut(t *testing.T) {
	iso := newIsolate(t, 300*time.Millisecond)
	_, _, err := fetch(t, iso, "/hang", nil)
	require.ErrorIs(t, err, isolate.ErrHung)
	res, _, err := fetch(t, iso, "/fine", nil)
	require.NoError(t, err)
	assert.Equal(t, 200, res.Status)
}

func TestScheduled(t *testing.T) {
	iso := newIsolate(t, 5*time.Second)
	require.NoError(t, iso.Scheduled(context.Background(), "*/5 * * * *", time.Now()))
	require.ErrorContains(t, iso.Scheduled(context.Background(), "fail", time.Now()), "job failed")
}

// A long-lived instance must not accumulate JS references request after
// request (syumai's own entry leaks its stream callbacks this way).
func TestNoReferenceLeakAcrossRequests(t *testing.T) {
	iso := newIsolate(t, 5*time.Second)
	serve := func(n int) {
		for i := 0; i < n; i++ {
			_, settled, err := fetch(t, iso, "/leak", []byte("body"))
			require.NoError(t, err)
			<-settled
		}
	}
	collect := func() int {
		_, settled, err := fetch(t, iso, "/gc", nil)
		require.NoError(t, err)
		<-settled
		return iso.LiveRefs()
	}
	serve(100)
	before := collect()
	serve(1000)
	assert.InDelta(t, before, collect(), 5, "live references stay flat")
}
