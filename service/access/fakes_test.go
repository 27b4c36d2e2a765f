package access

import (
	"context"
	"errors"
	"github.com/emojisearch/emojisearch/service/internal/testclock"
	"sync"
)

// fakeStore is an in-memory KeyStore that can be taken down.
type fakeStore struct {
	mu      sync.Mutex
	recs    map[string]KeyRecord // by hash
	down    bool
	lookups int
}

var errStoreDown = errors.New("fake store: unavailable")

func newFakeStore() *fakeStore { return &fakeStore{recs: map[string]KeyRecord{}} }

func (s *fakeStore) LookupKey(_ context.Context, hash string) (KeyRecord, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lookups++
	if s.down {
		return KeyRecord{}, false, errStoreDown
	}
	rec, ok := s.recs[hash]
	return rec, ok, nil
}

func (s *fakeStore) set(hash string, rec KeyRecord) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.recs[hash] = rec
}

func (s *fakeStore) setDown(down bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.down = down
}

func (s *fakeStore) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lookups
}

// fakeLimiter allows limit calls per key, or fails.
type fakeLimiter struct {
	mu    sync.Mutex
	limit int
	calls map[string]int
	err   error
}

func newFakeLimiter(limit int) *fakeLimiter {
	return &fakeLimiter{limit: limit, calls: map[string]int{}}
}

func (l *fakeLimiter) Allow(_ context.Context, key string) (bool, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err != nil {
		return false, l.err
	}
	l.calls[key]++
	return l.calls[key] <= l.limit, nil
}

func (l *fakeLimiter) keys() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for k := range l.calls {
		out = append(out, k)
	}
	return out
}

// fakeClock is moved by tests instead of sleeping.
type fakeClock = testclock.Clock
