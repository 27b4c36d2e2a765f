package crash

import (
	"bytes"
	"database/sql"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	_ "modernc.org/sqlite"
)

// server is one real `hostsim serve` process (the command operators run),
// on a state folder that outlives it.
type server struct {
	cmd    *exec.Cmd
	port   int
	state  string
	out    *syncBuffer
	exited chan error
}

func (s *server) base() string { return "http://127.0.0.1:" + strconv.Itoa(s.port) }

// syncBuffer collects the process's output.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

func freePort(t *testing.T) int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// startServer starts hostsim serve on state and port and waits until it
// answers /v1/health; extra flags go last.
func startServer(t *testing.T, state string, port int, extra ...string) *server {
	t.Helper()
	root := repoRoot()
	cmd := serveCommand(state, port, extra...)
	cmd.Dir = root
	s := &server{cmd: cmd, port: port, state: state, out: &syncBuffer{}, exited: make(chan error, 1)}
	cmd.Stdout, cmd.Stderr = s.out, s.out
	require.NoError(t, cmd.Start())
	go func() { s.exited <- cmd.Wait() }()
	deadline := time.Now().Add(3 * time.Minute) // the first start compiles the module
	for time.Now().Before(deadline) {
		select {
		case err := <-s.exited:
			t.Fatalf("hostsim exited at start: %v\n%s", err, s.out.String())
		default:
		}
		r, err := http.Get(s.base() + "/v1/health")
		if err == nil {
			r.Body.Close()
			if r.StatusCode == 200 {
				return s
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	_ = cmd.Process.Kill()
	t.Fatalf("hostsim never became ready:\n%s", s.out.String())
	return nil
}

// serveCommand is `hostsim serve` with the suites' flags.
func serveCommand(state string, port int, extra ...string) *exec.Cmd {
	root := repoRoot()
	args := append([]string{"serve",
		"--port", strconv.Itoa(port), "--state", state,
		"--config", filepath.Join(root, "wrangler.toml"),
		"--no-crons", "--quiet", "--rate-limit-scale", "100000",
		"--ai-model", filepath.Join(root, "packs", "models", "glove-cldr.100.embm"),
		"--var", "ENVIRONMENT:development"}, extra...)
	cmd := exec.Command(filepath.Join(root, "build", "bin", "hostsim"), args...)
	cmd.Dir = root
	return cmd
}

// stop sends sig and waits for the process to end.
func (s *server) stop(t *testing.T, sig syscall.Signal) time.Duration {
	t.Helper()
	start := time.Now()
	require.NoError(t, s.cmd.Process.Signal(sig))
	select {
	case <-s.exited:
	case <-time.After(60 * time.Second):
		_ = s.cmd.Process.Kill()
		t.Fatalf("hostsim did not stop within 60 s of %v:\n%s", sig, s.out.String())
	}
	return time.Since(start)
}

// rssMiB is the process's resident memory.
func (s *server) rssMiB() float64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", s.cmd.Process.Pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 64)
			return kb / 1024
		}
	}
	return 0
}

// openState opens the stopped server's D1 file (the only SQLite file of
// the state's d1 folder).
func openState(t *testing.T, state string) *sql.DB {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(state, "d1", "*.sqlite"))
	require.NoError(t, err)
	require.Len(t, files, 1, "one D1 database in the state")
	db, err := sql.Open("sqlite", files[0])
	require.NoError(t, err)
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { _ = db.Close() })
	return db
}

// operator opens the running server's D1 file beside it, as an operator's
// tool would (SQLite locks across processes).
func operator(t *testing.T, state string) *sql.DB {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(state, "d1", "*.sqlite"))
	require.NoError(t, err)
	require.Len(t, files, 1)
	db, err := sql.Open("sqlite", "file:"+files[0]+"?_pragma=busy_timeout(10000)")
	require.NoError(t, err)
	db.SetMaxOpenConns(1)
	return db
}

func integrity(t *testing.T, db *sql.DB) string {
	t.Helper()
	var res string
	require.NoError(t, db.QueryRow("PRAGMA integrity_check").Scan(&res))
	return res
}

// exists reports which of ids are rows of table (by column col).
func missing(t *testing.T, db *sql.DB, query string, keys [][]any) int {
	t.Helper()
	lost := 0
	for _, k := range keys {
		var n int
		err := db.QueryRow(query, k...).Scan(&n)
		if errors.Is(err, sql.ErrNoRows) || n == 0 {
			lost++
			continue
		}
		require.NoError(t, err)
	}
	return lost
}

func usageByApp(t *testing.T, db *sql.DB) map[string]int64 {
	t.Helper()
	rows, err := db.Query("SELECT app_id, SUM(count) FROM usage_monthly WHERE metric = 'semantic_calls' GROUP BY app_id")
	require.NoError(t, err)
	defer rows.Close()
	out := map[string]int64{}
	for rows.Next() {
		var app string
		var n int64
		require.NoError(t, rows.Scan(&app, &n))
		out[app] = n
	}
	require.NoError(t, rows.Err())
	return out
}

func repoRoot() string {
	wd, _ := os.Getwd()
	return filepath.Dir(filepath.Dir(wd))
}
