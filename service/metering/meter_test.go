package metering

import (
	"context"
	"github.com/emojisearch/emojisearch/service/internal/testclock"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/service/access"
	"github.com/emojisearch/emojisearch/service/plans"
	"github.com/emojisearch/emojisearch/service/writebehind"
)

var (
	app1 = access.Caller{KeyID: "k1", AppID: "app1", AccountID: "acct1", Plan: plans.Free}
	app2 = access.Caller{KeyID: "k2", AppID: "app2", AccountID: "acct1", Plan: plans.Free}
	app3 = access.Caller{KeyID: "k3", AppID: "app3", AccountID: "acct2", Plan: plans.Pro}
)

const march = "2026-03"

func newMeter(t *testing.T) (*Meter, *fakeStore, *fakeClock) {
	t.Helper()
	store := newFakeStore()
	clock := testclock.New(time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC))
	m, err := New(NewConfig(store).WithClock(clock.Now).WithWriteBehind(fastWriter(t, clock, nil, nil)))
	require.NoError(t, err)
	return m, store, clock
}

// fastWriter is a write-behind whose timers end at once, moving the clock
// by their delay; delays, when set, records them.
func fastWriter(t *testing.T, clock *fakeClock, hook func(error), delays *[]time.Duration) *writebehind.Writer {
	t.Helper()
	var mu sync.Mutex
	timer := func(d time.Duration) func(context.Context) error {
		if delays != nil {
			mu.Lock()
			*delays = append(*delays, d)
			mu.Unlock()
		}
		return func(context.Context) error { clock.Add(d); return nil }
	}
	w, err := writebehind.New(writebehind.NewConfig().WithClock(clock.Now).WithTimer(timer).WithErrorHook(hook))
	require.NoError(t, err)
	return w
}

// inline runs a scheduled flush at once.
func inline(ctx context.Context, fn func(context.Context)) { fn(ctx) }

func TestCountsOnlyKeyedNonDevCallers(t *testing.T) {
	m, store, _ := newMeter(t)
	ctx := t.Context()
	m.Count(access.Caller{Anonymous: true, AnonReason: access.AnonNoKey}, plans.SemanticCalls)
	m.Count(access.Caller{Anonymous: true, AnonReason: access.AnonStoreUnavailable}, plans.SemanticCalls)
	m.Count(access.Caller{Dev: true, KeyID: "dev_abc"}, plans.SemanticCalls)
	require.NoError(t, m.Flush(ctx))
	_, writes := store.stats()
	assert.Zero(t, writes, "nothing to write")

	m.Count(app1, plans.SemanticCalls)
	m.Count(app1, plans.SemanticCalls)
	m.Count(app2, plans.ImageClassifications)
	require.NoError(t, m.Flush(ctx))
	assert.Equal(t, int64(2), store.row("app1", "acct1", march, plans.SemanticCalls))
	assert.Equal(t, int64(1), store.row("app2", "acct1", march, plans.ImageClassifications))
}

func TestFlushWritesDeltas(t *testing.T) {
	m, _, _ := newMeter(t)
	var got []Delta
	store := &recordingStore{fn: func(ds []Delta) { got = ds }}
	m.store = store
	m.Count(app3, plans.SemanticCalls)
	m.Count(app1, plans.SemanticCalls)
	m.Count(app1, plans.SemanticCalls)
	require.NoError(t, m.Flush(t.Context()))
	assert.Equal(t, []Delta{
		{AppID: "app1", AccountID: "acct1", Period: march, Metric: plans.SemanticCalls, Count: 2},
		{AppID: "app3", AccountID: "acct2", Period: march, Metric: plans.SemanticCalls, Count: 1},
	}, got)
}

type recordingStore struct{ fn func([]Delta) }

func (s *recordingStore) AddUsage(_ context.Context, ds []Delta) error { s.fn(ds); return nil }
func (s *recordingStore) AccountTotal(context.Context, string, string, string) (int64, error) {
	return 0, nil
}

func TestUTCMonthBoundaries(t *testing.T) {
	m, store, clock := newMeter(t)
	ctx := t.Context()
	clock.Set(time.Date(2026, 1, 31, 23, 59, 59, 999_999_999, time.UTC))
	m.Count(app1, plans.SemanticCalls)
	// 02:30 on 1 February in UTC+3 is still January in UTC.
	clock.Set(time.Date(2026, 2, 1, 2, 30, 0, 0, time.FixedZone("UTC+3", 3*3600)))
	m.Count(app1, plans.SemanticCalls)
	clock.Set(time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC))
	m.Count(app1, plans.SemanticCalls)
	// 20:00 on 28 February in UTC-5 is already March in UTC.
	clock.Set(time.Date(2026, 2, 28, 20, 0, 0, 0, time.FixedZone("UTC-5", -5*3600)))
	m.Count(app1, plans.SemanticCalls)
	// 31 December to 1 January crosses the year.
	clock.Set(time.Date(2026, 12, 31, 23, 59, 59, 0, time.UTC))
	m.Count(app1, plans.SemanticCalls)
	clock.Set(time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC))
	m.Count(app1, plans.SemanticCalls)
	require.NoError(t, m.Flush(ctx))
	for period, want := range map[string]int64{"2026-01": 2, "2026-02": 1, "2026-03": 1, "2026-12": 1, "2027-01": 1} {
		assert.Equal(t, want, store.row("app1", "acct1", period, plans.SemanticCalls), period)
	}
	assert.Equal(t, "2026-01", Period(time.Date(2026, 1, 31, 23, 59, 59, 0, time.UTC)))
}

func TestOverLimit(t *testing.T) {
	m, store, _ := newMeter(t)
	ctx := t.Context()
	limit := int64(10_000) // plans.Free semantic_calls
	store.set("app1", "acct1", march, plans.SemanticCalls, limit-3)
	store.set("app2", "acct1", march, plans.SemanticCalls, 1)
	store.set("app1", "acct1", "2026-02", plans.SemanticCalls, 99_999) // last month does not count

	assert.False(t, m.OverLimit(ctx, app1, plans.SemanticCalls), "9,998 of 10,000")
	m.Count(app1, plans.SemanticCalls)
	assert.False(t, m.OverLimit(ctx, app2, plans.SemanticCalls), "9,999 of 10,000")
	m.Count(app2, plans.SemanticCalls) // another app of the account counts too
	assert.True(t, m.OverLimit(ctx, app1, plans.SemanticCalls), "the total reaches the limit")
	assert.True(t, m.OverLimit(ctx, app2, plans.SemanticCalls), "every app of the account is over")
	assert.False(t, m.OverLimit(ctx, app3, plans.SemanticCalls), "another account")
	assert.False(t, m.OverLimit(ctx, app1, plans.ImageClassifications), "another metric")

	assert.False(t, m.OverLimit(ctx, access.Caller{Anonymous: true}, plans.SemanticCalls))
	assert.False(t, m.OverLimit(ctx, access.Caller{Dev: true, KeyID: "dev_x"}, plans.SemanticCalls))
	unknownPlan := app1
	unknownPlan.Plan = "gold"
	assert.False(t, m.OverLimit(ctx, unknownPlan, plans.SemanticCalls), "unknown plan fails open")
	assert.False(t, m.OverLimit(ctx, app1, "bogus_metric"))
}

func TestOverLimitImageClassifications(t *testing.T) {
	m, _, _ := newMeter(t)
	ctx := t.Context()
	for range 99 { // plans.Free allows 100
		m.Count(app1, plans.ImageClassifications)
	}
	assert.False(t, m.OverLimit(ctx, app1, plans.ImageClassifications))
	m.Count(app1, plans.ImageClassifications)
	assert.True(t, m.OverLimit(ctx, app1, plans.ImageClassifications))
}

func TestAccountTotalCachedForTTL(t *testing.T) {
	m, store, clock := newMeter(t)
	ctx := t.Context()
	store.set("app1", "acct1", march, plans.SemanticCalls, 9_000)
	assert.False(t, m.OverLimit(ctx, app1, plans.SemanticCalls))
	store.set("other-instance", "acct1", march, plans.SemanticCalls, 1_000) // written by another instance

	clock.Add(59 * time.Second)
	assert.False(t, m.OverLimit(ctx, app1, plans.SemanticCalls), "the copy is at most 60 s old")
	reads, _ := store.stats()
	assert.Equal(t, 1, reads)

	clock.Add(time.Second)
	assert.True(t, m.OverLimit(ctx, app1, plans.SemanticCalls), "after 60 s the total is read again")
	reads, _ = store.stats()
	assert.Equal(t, 2, reads)
}

func TestTotalReadErrorFailsOpenAndBacksOff(t *testing.T) {
	m, store, clock := newMeter(t)
	ctx := t.Context()
	var hooked []error
	m.onError = func(err error) { hooked = append(hooked, err) }
	store.set("app1", "acct1", march, plans.SemanticCalls, 20_000)
	store.update(func(s *fakeStore) { s.failReads = true })

	assert.False(t, m.OverLimit(ctx, app1, plans.SemanticCalls), "unknown total: not over")
	assert.False(t, m.OverLimit(ctx, app1, plans.SemanticCalls))
	reads, _ := store.stats()
	assert.Equal(t, 1, reads, "not asked again on every request")
	assert.Len(t, hooked, 1)

	store.update(func(s *fakeStore) { s.failReads = false })
	clock.Add(10 * time.Second)
	assert.True(t, m.OverLimit(ctx, app1, plans.SemanticCalls))

	// A later failure keeps the last known total.
	clock.Add(61 * time.Second)
	store.update(func(s *fakeStore) { s.failReads = true })
	assert.True(t, m.OverLimit(ctx, app1, plans.SemanticCalls))
}

func TestMaybeFlushSchedule(t *testing.T) {
	store := newFakeStore()
	clock := testclock.New(time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC))
	var delays []time.Duration
	m, err := New(NewConfig(store).WithClock(clock.Now).WithWriteBehind(fastWriter(t, clock, nil, &delays)))
	require.NoError(t, err)
	ctx := t.Context()
	scheduled := 0
	run := func(ctx context.Context, fn func(context.Context)) { scheduled++; fn(ctx) }

	m.MaybeFlush(ctx, run)
	assert.Zero(t, scheduled, "no counts, nothing to do")

	m.Count(app1, plans.SemanticCalls)
	m.MaybeFlush(ctx, run)
	assert.Equal(t, 1, scheduled, "the first counts of an instance are written at once")
	assert.Empty(t, delays)
	assert.Equal(t, int64(1), store.row("app1", "acct1", march, plans.SemanticCalls))

	m.Count(app1, plans.SemanticCalls)
	clock.Add(300 * time.Millisecond)
	m.MaybeFlush(ctx, run)
	assert.Equal(t, 2, scheduled)
	assert.Equal(t, []time.Duration{700 * time.Millisecond}, delays, "written when the 1 s interval since the last write ends")
	assert.Equal(t, int64(2), store.row("app1", "acct1", march, plans.SemanticCalls), "no later request needed")

	clock.Add(time.Hour)
	m.MaybeFlush(ctx, run)
	assert.Equal(t, 2, scheduled, "idle: no counts")

	m.Count(app1, plans.SemanticCalls)
	m.MaybeFlush(ctx, nil) // no runner: inline
	assert.Equal(t, int64(3), store.row("app1", "acct1", march, plans.SemanticCalls))
	assert.Len(t, delays, 1, "after a quiet hour: at once")
}

func TestFailedWriteMergesBack(t *testing.T) {
	store := newFakeStore()
	clock := testclock.New(time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC))
	var hooked []error
	m, err := New(NewConfig(store).WithClock(clock.Now).WithWriteBehind(
		fastWriter(t, clock, func(err error) { hooked = append(hooked, err) }, nil)))
	require.NoError(t, err)
	ctx := t.Context()
	store.update(func(s *fakeStore) { s.failWrites = true })
	for range 3 {
		m.Count(app1, plans.SemanticCalls)
	}
	require.ErrorIs(t, m.Flush(ctx), errDown)
	m.Count(app1, plans.SemanticCalls)
	m.MaybeFlush(ctx, inline)
	assert.Len(t, hooked, 2, "a failed scheduled write is retried once; both failures reach the hook")
	assert.False(t, m.OverLimit(ctx, app1, plans.SemanticCalls))
	assert.Equal(t, int64(4), m.used(ctx, "acct1", plans.SemanticCalls), "unwritten counts still count locally")

	store.update(func(s *fakeStore) { s.failWrites = false })
	clock.Add(10 * time.Second)
	m.Count(app1, plans.SemanticCalls)
	m.MaybeFlush(ctx, inline)
	assert.Equal(t, int64(5), store.row("app1", "acct1", march, plans.SemanticCalls), "written once, nothing lost")
	require.NoError(t, m.Flush(ctx))
	assert.Equal(t, int64(5), store.row("app1", "acct1", march, plans.SemanticCalls), "nothing written twice")
}

// TestWrittenCountsStayCounted: after a write the cached total includes
// it, without reading the store again.
func TestWrittenCountsStayCounted(t *testing.T) {
	m, store, _ := newMeter(t)
	ctx := t.Context()
	store.set("app1", "acct1", march, plans.SemanticCalls, 9_990)
	assert.Equal(t, int64(9_990), m.used(ctx, "acct1", plans.SemanticCalls))
	for range 10 {
		m.Count(app1, plans.SemanticCalls)
	}
	require.NoError(t, m.Flush(ctx))
	assert.True(t, m.OverLimit(ctx, app1, plans.SemanticCalls))
	assert.Equal(t, int64(10_000), m.used(ctx, "acct1", plans.SemanticCalls), "not counted twice either")
	reads, _ := store.stats()
	assert.Equal(t, 1, reads)
}

// TestReadDuringWriteIsReadAgain: a total read while a write is in flight
// may or may not include it, so it is read again on the next call; a read
// that ended before the write began is bumped instead.
func TestReadDuringWriteIsReadAgain(t *testing.T) {
	ctx := t.Context()
	reads := func(s *fakeStore) int { r, _ := s.stats(); return r }

	t.Run("write ends after the read", func(t *testing.T) {
		m, store, _ := newMeter(t)
		m.Count(app1, plans.SemanticCalls)
		entered, release := store.block(&store.inWrite)
		done := make(chan error)
		go func() { done <- m.Flush(ctx) }()
		<-entered
		assert.Equal(t, int64(1), m.used(ctx, "acct1", plans.SemanticCalls), "in flight still counts")
		release()
		require.NoError(t, <-done)
		assert.Equal(t, int64(1), m.used(ctx, "acct1", plans.SemanticCalls))
		assert.Equal(t, 2, reads(store), "the overlapping read was not trusted")
		assert.Equal(t, int64(1), m.used(ctx, "acct1", plans.SemanticCalls))
		assert.Equal(t, 2, reads(store), "the second read was")
	})

	t.Run("write begins and ends during the read", func(t *testing.T) {
		m, store, _ := newMeter(t)
		m.Count(app1, plans.SemanticCalls)
		entered, release := store.block(&store.inRead)
		done := make(chan int64)
		go func() { done <- m.used(ctx, "acct1", plans.SemanticCalls) }()
		<-entered
		require.NoError(t, m.Flush(ctx))
		release()
		assert.Equal(t, int64(1), <-done)
		assert.Equal(t, int64(1), m.used(ctx, "acct1", plans.SemanticCalls))
		assert.Equal(t, 2, reads(store), "the overlapping read was not trusted")
	})
}

func TestRefreshInFlightUsesCopy(t *testing.T) {
	m, store, _ := newMeter(t)
	store.set("app1", "acct1", march, plans.SemanticCalls, 50_000)
	entered, release := store.block(&store.inRead)
	done := make(chan bool)
	go func() { done <- m.OverLimit(t.Context(), app1, plans.SemanticCalls) }()
	<-entered
	// A second request does not wait for the first one's read.
	assert.False(t, m.OverLimit(t.Context(), app1, plans.SemanticCalls), "no copy yet: local counts only")
	release()
	assert.True(t, <-done)
	assert.True(t, m.OverLimit(t.Context(), app1, plans.SemanticCalls))
	r, _ := store.stats()
	assert.Equal(t, 1, r)
}

// TestConcurrentCountsAndFlushes: 50 goroutines count across 3 apps while
// flushes run concurrently and some writes fail; every count is stored
// exactly once (run with -race).
func TestConcurrentCountsAndFlushes(t *testing.T) {
	m, store, clock := newMeter(t)
	store.update(func(s *fakeStore) { s.failEvery = 3 })
	ctx := t.Context()
	callers := []access.Caller{app1, app2, app3}
	const workers, perWorker = 50, 400
	var flushes sync.WaitGroup
	run := func(ctx context.Context, fn func(context.Context)) {
		flushes.Add(1)
		go func() { defer flushes.Done(); fn(ctx) }()
	}
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range perWorker {
				c := callers[(w+i)%len(callers)]
				m.Count(c, plans.SemanticCalls)
				_ = m.OverLimit(ctx, c, plans.SemanticCalls)
				if i%10 == 0 {
					clock.Add(time.Second)
				}
				m.MaybeFlush(ctx, run)
				if i%97 == 0 {
					_ = m.Flush(ctx)
				}
			}
		}()
	}
	wg.Wait()
	flushes.Wait()
	store.update(func(s *fakeStore) { s.failEvery = 0 })

	// Counts land in whichever months the moving clock reached; compare
	// sums per app over all months.
	require.NoError(t, m.Flush(ctx))
	perApp := map[string]int64{}
	store.update(func(s *fakeStore) {
		for k, n := range s.rows {
			perApp[k.app] += n
		}
	})
	var want = map[string]int64{}
	for w := range workers {
		for i := range perWorker {
			want[callers[(w+i)%len(callers)].AppID]++
		}
	}
	assert.Equal(t, want, perApp)
	m.mu.Lock()
	defer m.mu.Unlock()
	assert.Empty(t, m.counts)
	assert.Empty(t, m.pending, "nothing left unwritten")
	assert.Zero(t, m.writesInFlight)
}

func TestNewReportsEveryProblem(t *testing.T) {
	_, err := New(Config{}.WithFlushEvery(0).WithTotalTTL(-1))
	require.Error(t, err)
	for _, want := range []string{"no usage store", "no clock", "flush interval", "total TTL"} {
		assert.Contains(t, err.Error(), want)
	}
}

func TestMetered(t *testing.T) {
	assert.True(t, Metered(app1))
	assert.False(t, Metered(access.Caller{Anonymous: true}))
	assert.False(t, Metered(access.Caller{Dev: true, KeyID: "dev_x", AccountID: "a", AppID: "b"}))
	assert.False(t, Metered(access.Caller{KeyID: "k"}), "no app row")
}
