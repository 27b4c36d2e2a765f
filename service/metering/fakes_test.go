package metering

import (
	"context"
	"errors"
	"github.com/emojisearch/emojisearch/service/internal/testclock"
	"sync"
)

var errDown = errors.New("fake usage store: unavailable")

// fakeStore sums what is written, like usage_monthly does.
type fakeStore struct {
	mu         sync.Mutex
	rows       map[appKey]int64
	writes     int
	reads      int
	failWrites bool
	failEvery  int // when > 0, every failEvery-th write fails
	failReads  bool
	// inWrite and inRead, when set, run inside AddUsage and AccountTotal
	// before the store is touched.
	inWrite, inRead func()
}

func newFakeStore() *fakeStore { return &fakeStore{rows: map[appKey]int64{}} }

func (s *fakeStore) AddUsage(_ context.Context, ds []Delta) error {
	s.mu.Lock()
	hook := s.inWrite
	s.mu.Unlock()
	if hook != nil {
		hook()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.writes++
	if s.failWrites || (s.failEvery > 0 && s.writes%s.failEvery == 0) {
		return errDown
	}
	for _, d := range ds {
		s.rows[appKey{d.AppID, d.AccountID, d.Period, d.Metric}] += d.Count
	}
	return nil
}

func (s *fakeStore) AccountTotal(_ context.Context, account, period, metric string) (int64, error) {
	s.mu.Lock()
	hook := s.inRead
	s.mu.Unlock()
	if hook != nil {
		hook()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reads++
	if s.failReads {
		return 0, errDown
	}
	var sum int64
	for k, n := range s.rows {
		if k.account == account && k.period == period && k.metric == metric {
			sum += n
		}
	}
	return sum, nil
}

func (s *fakeStore) row(app, account, period, metric string) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.rows[appKey{app, account, period, metric}]
}

func (s *fakeStore) set(app, account, period, metric string, n int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rows[appKey{app, account, period, metric}] = n
}

func (s *fakeStore) stats() (reads, writes int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.reads, s.writes
}

// block makes the next call through hook wait: it returns a channel
// closed when the call is inside and a function that lets it go on.
func (s *fakeStore) block(hook *func()) (entered <-chan struct{}, release func()) {
	in, out := make(chan struct{}), make(chan struct{})
	s.update(func(*fakeStore) {
		*hook = func() {
			s.update(func(*fakeStore) { *hook = nil })
			close(in)
			<-out
		}
	})
	return in, func() { close(out) }
}

func (s *fakeStore) update(fn func(s *fakeStore)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	fn(s)
}

// fakeClock is moved by tests instead of sleeping.
type fakeClock = testclock.Clock
