// Package crash is the crash suite (issue 17): real `hostsim serve`
// processes under concurrent clients that create accounts, apps, keys and
// team members and make keyed calls, stopped mid-traffic by SIGTERM or
// kill -9 and restarted on the same state. After each stop it checks the
// SQLite file (PRAGMA integrity_check), that every acknowledged row is
// there, and the stored usage against the metered calls answered: equal
// after SIGTERM, short by at most the last write window after kill -9
// (2 s since issue 31). faults_test.go is issue 31's fault suite.
//
// The short version (about a minute) runs in CI through test.sh. Longer
// and larger runs are benchmarks (figures in docs/benchmarks-history.md):
//
//	CRASH_CLIENTS=50 CRASH_SECONDS=20 CRASH_ROUNDS=term,kill,kill,term,kill,term go test -count=1 -v -run TestCrashSuite ./e2e/crash/
//	CRASH_LOAD=1 CRASH_CLIENTS=200 CRASH_SECONDS=60 go test -count=1 -v -run TestLoad ./e2e/crash/
package crash

import (
	"context"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// writeWindow bounds what kill -9 may lose: the write-behind interval
// (service/writebehind, 1 s) plus the time a write takes; issue 31's bar is
// at most 2 s of counts.
const writeWindow = 2 * time.Second

func TestMain(m *testing.M) {
	if os.Getenv("E2E_SKIP_BUILD") == "" {
		cmd := exec.Command(filepath.Join(repoRoot(), "build.sh"))
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
		if err := cmd.Run(); err != nil {
			fmt.Fprintln(os.Stderr, "crash: build.sh failed:", err)
			os.Exit(1)
		}
	}
	os.Exit(m.Run())
}

func envInt(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return def
}

func TestCrashSuite(t *testing.T) {
	clients := envInt("CRASH_CLIENTS", 8)
	seconds := time.Duration(envInt("CRASH_SECONDS", 12)) * time.Second
	rounds := strings.Split(cmpOr(os.Getenv("CRASH_ROUNDS"), "term,kill,term"), ",")
	state, port := t.TempDir(), freePort(t)
	l := newLedger()
	srv := startServer(t, state, port)
	t.Cleanup(func() { _ = srv.cmd.Process.Kill() })
	prevStored, prevMetered := map[string]int64{}, map[string]int64{}

	for i, how := range rounds {
		sig := map[string]syscall.Signal{"term": syscall.SIGTERM, "kill": syscall.SIGKILL}[how]
		require.NotZero(t, sig, "CRASH_ROUNDS takes term and kill")
		ctx, cancel := context.WithCancel(t.Context())
		op := operator(t, state)
		l.upgrade = func(id string) error {
			_, err := op.Exec("UPDATE accounts SET plan = 'pro' WHERE id = ?", id)
			return err
		}
		var wg sync.WaitGroup
		for c := range clients {
			wg.Add(1)
			go func() {
				defer wg.Done()
				run(ctx, srv.base(), l, fmt.Sprintf("crash-r%d-c%d", i, c), 12, 10*time.Millisecond)
			}()
		}
		time.Sleep(seconds)
		stoppedAt := time.Now()
		took := srv.stop(t, sig) // mid-traffic
		cancel()
		wg.Wait()
		require.NoError(t, op.Close())

		db := openState(t, state)
		assert.Equal(t, "ok", integrity(t, db), "round %d (%s): integrity_check", i, how)
		l.mu.Lock()
		accounts, apps, keys, members := len(l.accounts), len(l.apps), len(l.keys), len(l.members)
		lost := missing(t, db, "SELECT COUNT(*) FROM accounts WHERE id = ?", column(l.accounts)) +
			missing(t, db, "SELECT COUNT(*) FROM apps WHERE id = ? AND account_id = ?", pairs(l.apps)) +
			missing(t, db, "SELECT COUNT(*) FROM api_keys WHERE id = ? AND app_id = ?", pairs(l.keys)) +
			missing(t, db, "SELECT COUNT(*) FROM team_members WHERE owner_id = ? AND member_id = ?", pairs(l.members))
		metered := maps.Clone(l.metered)
		l.mu.Unlock()
		assert.Zero(t, lost, "round %d (%s): acknowledged rows lost", i, how)

		stored := usageByApp(t, db)
		var answered, written int64
		for app, n := range metered {
			answered += n - prevMetered[app]
			written += stored[app] - prevStored[app]
			if sig == syscall.SIGTERM {
				assert.Equal(t, n-prevMetered[app], stored[app]-prevStored[app], "round %d (%s): usage of app %s", i, how, app)
			}
		}
		window := l.meteredSince(stoppedAt.Add(-writeWindow))
		if sig == syscall.SIGKILL {
			// A call answered while the process died may be counted with
			// its answer lost: at most one per client.
			assert.LessOrEqual(t, written, answered+int64(clients), "round %d (kill): never more than answered", i)
			assert.GreaterOrEqual(t, written, answered-window, "round %d (kill): lost at most the last write window", i)
		}
		t.Logf("round %d %s: stopped in %s; rows acknowledged so far: %d accounts, %d apps, %d keys, %d members, lost %d; "+
			"metered calls answered this round %d, stored %d (lost %d; answered in the last %s: %d); requests %d, no answer %d",
			i, how, took.Round(time.Millisecond), accounts, apps, keys, members, lost,
			answered, written, answered-written, writeWindow, window, l.requests.Load(), l.failures.Load())
		require.NoError(t, db.Close())
		prevStored, prevMetered = stored, metered

		srv = startServer(t, state, port) // restart on the same state
	}
	assert.NotContains(t, srv.out.String(), "fresh", "a restart reuses the state")
	srv.stop(t, syscall.SIGTERM)
}

func column(ids []string) [][]any {
	out := make([][]any, len(ids))
	for i, id := range ids {
		out[i] = []any{id}
	}
	return out
}

func pairs(ps [][2]string) [][]any {
	out := make([][]any, len(ps))
	for i, p := range ps {
		out[i] = []any{p[0], p[1]}
	}
	return out
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// TestLoad is the 200-client load run (a benchmark: CRASH_LOAD=1):
// requests/s, latency percentiles, memory over time, and usage equal to
// the metered calls after a SIGTERM.
func TestLoad(t *testing.T) {
	if os.Getenv("CRASH_LOAD") == "" {
		t.Skip("a benchmark: CRASH_LOAD=1 CRASH_CLIENTS=200 CRASH_SECONDS=60")
	}
	clients := envInt("CRASH_CLIENTS", 200)
	seconds := time.Duration(envInt("CRASH_SECONDS", 60)) * time.Second
	state := t.TempDir()
	srv := startServer(t, state, freePort(t))
	t.Cleanup(func() { _ = srv.cmd.Process.Kill() })
	l := newLedger()
	ctx, cancel := context.WithTimeout(t.Context(), seconds)
	defer cancel()
	var wg sync.WaitGroup
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			run(ctx, srv.base(), l, fmt.Sprintf("load-c%d", c), 50, 0)
		}()
	}
	var rss []string
	start := time.Now()
	for tick := time.NewTicker(5 * time.Second); ctx.Err() == nil; {
		select {
		case <-tick.C:
			rss = append(rss, fmt.Sprintf("%ds %.0f", int(time.Since(start).Seconds()), srv.rssMiB()))
		case <-ctx.Done():
		}
	}
	wg.Wait()
	elapsed := time.Since(start)
	srv.stop(t, syscall.SIGTERM)
	db := openState(t, state)
	assert.Equal(t, "ok", integrity(t, db))
	stored := usageByApp(t, db)
	var written int64
	for _, n := range stored {
		written += n
	}
	metered := l.meteredTotal()
	assert.Equal(t, metered, written, "usage = metered calls answered after SIGTERM")
	l.mu.Lock()
	defer l.mu.Unlock()
	slices.Sort(l.lat)
	t.Logf("%d clients, %s: %d requests (%.0f/s), no answer %d, statuses %v, p50 %s p99 %s; metered %d stored %d; RSS MiB over time: %s",
		clients, elapsed.Round(time.Second), l.requests.Load(), float64(l.requests.Load())/elapsed.Seconds(), l.failures.Load(),
		l.status, percentile(l.lat, 0.50).Round(10*time.Microsecond), percentile(l.lat, 0.99).Round(10*time.Microsecond),
		metered, written, strings.Join(rss, ", "))
}
