package d1

import (
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// hammer runs fn from many goroutines at once and collects every error.
func hammer(goroutines, iterations int, fn func(g, i int) error) []error {
	var mu sync.Mutex
	var errs []error
	var wg sync.WaitGroup
	start := make(chan struct{})
	for g := 0; g < goroutines; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			<-start
			for i := 0; i < iterations; i++ {
				if err := fn(g, i); err != nil {
					mu.Lock()
					errs = append(errs, err)
					mu.Unlock()
				}
			}
		}(g)
	}
	close(start)
	wg.Wait()
	return errs
}

func TestConcurrentWriters(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hammer.sqlite")
	a, err := Open(path)
	require.NoError(t, err)
	defer a.Close()
	b, err := Open(path) // a second connection to the same file, like another process
	require.NoError(t, err)
	defer b.Close()
	mustRun(t, a, "CREATE TABLE events (id INTEGER PRIMARY KEY, g INTEGER, i INTEGER, UNIQUE (g, i))")

	const goroutines, iterations = 16, 40
	errs := hammer(goroutines, iterations, func(g, i int) error {
		db := a
		if g%2 == 1 {
			db = b
		}
		switch i % 4 {
		case 0:
			_, err := db.Run(bg, Statement{SQL: "INSERT INTO events (g, i) VALUES (?, ?)", Params: []any{int64(g), int64(i)}})
			return err
		case 1:
			_, err := db.Batch(bg, []Statement{
				{SQL: "INSERT INTO events (g, i) VALUES (?, ?)", Params: []any{int64(g), int64(i)}},
				{SQL: "UPDATE events SET i = i WHERE g = ?", Params: []any{int64(g)}},
			})
			return err
		case 2:
			_, err := db.Exec(bg, fmt.Sprintf("INSERT INTO events (g, i) VALUES (%d, %d);", g, i))
			return err
		default:
			r, err := db.All(bg, Statement{SQL: "SELECT count(*) FROM events WHERE g = ?", Params: []any{int64(g)}})
			if err == nil && r.Results[0].Values[0].(int64) < int64(i/4*3) {
				return fmt.Errorf("goroutine %d lost its own writes", g)
			}
			return err
		}
	})
	assert.Empty(t, errs, "no request failed (no 'database is locked')")
	r := mustRun(t, a, "SELECT count(*) FROM events")
	assert.Equal(t, [][]any{{int64(goroutines * iterations * 3 / 4)}}, values(r))
}

func TestConcurrentAtomicBatches(t *testing.T) {
	db := openDB(t)
	mustRun(t, db, "CREATE TABLE acct (id INTEGER PRIMARY KEY, balance INTEGER NOT NULL CHECK (balance >= 0))")
	mustRun(t, db, "INSERT INTO acct (id, balance) VALUES (1, 100), (2, 100)")
	// Transfers that would overdraw fail as a whole; the total never changes.
	errs := hammer(8, 50, func(g, i int) error {
		from, to := int64(1+g%2), int64(2-g%2)
		_, err := db.Batch(bg, []Statement{
			{SQL: "UPDATE acct SET balance = balance + 7 WHERE id = ?", Params: []any{to}},
			{SQL: "UPDATE acct SET balance = balance - 7 WHERE id = ?", Params: []any{from}},
		})
		var e *Error
		if err != nil && !(errors.As(err, &e) && e.Code == "SQLITE_CONSTRAINT") {
			return err
		}
		return nil
	})
	assert.Empty(t, errs)
	r := mustRun(t, db, "SELECT sum(balance), min(balance) >= 0 FROM acct")
	assert.Equal(t, [][]any{{int64(200), int64(1)}}, values(r))
}

func TestCloseWhileBusy(t *testing.T) {
	db := openDB(t)
	mustRun(t, db, "CREATE TABLE t (x)")
	done := make(chan struct{})
	var errs []error
	go func() {
		defer close(done)
		errs = hammer(4, 50, func(g, i int) error {
			_, err := db.Run(bg, Statement{SQL: "INSERT INTO t VALUES (?)", Params: []any{int64(i)}})
			if errors.Is(err, ErrClosed) {
				return nil
			}
			return err
		})
	}()
	require.NoError(t, db.Close())
	<-done
	assert.Empty(t, errs)
}
