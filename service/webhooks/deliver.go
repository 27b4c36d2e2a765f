package webhooks

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/emojisearch/emojisearch/service/accounts"
	"github.com/emojisearch/emojisearch/service/events"
	"github.com/emojisearch/emojisearch/service/plans"
	"github.com/emojisearch/emojisearch/service/store"
	"github.com/emojisearch/emojisearch/service/webhookurl"
)

// send makes one attempt of ev to url: the URL rechecked, a fresh t and
// signature over the unchanged body, redirects never followed, success a
// 2xx within the timeout. It never returns an error: every outcome is a
// delivery record.
func (s *Service) send(ctx context.Context, url, secret string, ev events.Event, body []byte, attempt int) Delivery {
	start := s.cfg.now()
	d := Delivery{ID: accounts.NewID("dlv"), EventID: ev.ID, Event: ev.Type, Attempt: attempt, CreatedAt: start.UnixMilli()}
	canonical, err := webhookurl.Check(url, webhookurl.Options{Development: s.cfg.dev})
	if err != nil {
		s.cfg.logf("webhooks: attempt refused: url rules")
		return d
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	timedOut := make(chan struct{})
	go func() {
		if s.cfg.sleep(ctx, s.cfg.timeout) == nil {
			close(timedOut)
			cancel()
		}
	}()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, canonical, bytes.NewReader(body))
	if err != nil {
		return d
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", UserAgent)
	req.Header.Set(HeaderEvent, ev.Type)
	req.Header.Set(HeaderEventID, ev.ID)
	req.Header.Set(HeaderSignature, SignatureHeader(secret, start.Unix(), body))
	res, err := s.cfg.doer.Do(req)
	d.DurationMs = s.cfg.now().Sub(start).Milliseconds()
	select {
	case <-timedOut:
		err = errors.Join(err, context.DeadlineExceeded)
	default:
	}
	if err != nil {
		if res != nil {
			_ = res.Body.Close()
		}
		s.cfg.logf("webhooks: attempt failed: %s", errKind(err))
		return d
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(res.Body, 64<<10))
	_ = res.Body.Close()
	status := res.StatusCode
	d.Status = &status
	d.OK = status >= 200 && status < 300
	return d
}

func errKind(err error) string {
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return "timeout"
	case errors.Is(err, context.Canceled):
		return "canceled"
	}
	return "network"
}

// Test sends one webhook.test event now, without retries and whatever the
// webhook's state, and records it.
func (s *Service) test(ctx context.Context, r row) (Delivery, error) {
	ev, err := events.New(events.TypeWebhookTest, r.AppID, s.nowMs(), map[string]string{
		"webhookId": r.ID, "message": "This is a test event from the webhook settings."})
	if err != nil {
		return Delivery{}, err
	}
	body, err := ev.Body()
	if err != nil {
		return Delivery{}, err
	}
	d := s.send(ctx, r.URL, r.Secret, ev, body, 1)
	_, err = s.cfg.db.Batch(ctx, recordStmts(r.ID, d))
	return d, err
}

// fanout turns events not yet fanned out into queue rows due at now (ms)
// and marks them, in one batch.
func (s *Service) fanout(ctx context.Context, now int64) error {
	since := now - Retention.Milliseconds()
	const fresh = `e.created_at >= ?2 AND NOT EXISTS
		(SELECT 1 FROM webhook_fanouts f WHERE f.event_id = e.id AND f.app_id = e.app_id)`
	_, err := s.cfg.db.Batch(ctx, []store.Stmt{
		store.Q(`INSERT OR IGNORE INTO webhook_queue (webhook_id, event_id, app_id, attempt, due_at, lease_until, created_at)
			SELECT w.id, e.id, e.app_id, 1, ?1, 0, ?1
			FROM events e JOIN webhooks w ON w.app_id = e.app_id
			JOIN apps a ON a.id = e.app_id JOIN accounts o ON o.id = a.account_id
			WHERE `+fresh+` AND w.enabled = 1 AND o.plan = ?3 AND w.created_at <= e.created_at
			AND EXISTS (SELECT 1 FROM json_each(w.events) j WHERE j.value = e.type)`, now, since, plans.Scale),
		store.Q(`INSERT OR IGNORE INTO webhook_fanouts (event_id, app_id, fanned_at)
			SELECT e.id, e.app_id, ?1 FROM events e WHERE `+fresh, now, since),
	})
	return err
}

// job is a claimed queue row with its event.
type job struct {
	WebhookID string `json:"webhook_id"`
	EventID   string `json:"event_id"`
	AppID     string `json:"app_id"`
	Attempt   int    `json:"attempt"`
	DueAt     int64  `json:"due_at"`
	Type      string `json:"type"`
	Data      string `json:"data"`
	CreatedAt int64  `json:"created_at"`
	lease     string
}

// claim leases up to claimLimit rows due by until.
func (s *Service) claim(ctx context.Context, until int64) ([]job, error) {
	now := s.nowMs()
	lease := accounts.NewID("lse")
	res, err := s.cfg.db.Batch(ctx, []store.Stmt{
		store.Q(`UPDATE webhook_queue SET lease_id = ?1, lease_until = max(due_at, ?2) + ?3
			WHERE (webhook_id, event_id) IN (SELECT webhook_id, event_id FROM webhook_queue
				WHERE due_at <= ?4 AND lease_until <= ?2 ORDER BY due_at LIMIT ?5)`,
			lease, now, Lease.Milliseconds(), until, claimLimit),
		store.Q(`SELECT q.webhook_id, q.event_id, q.app_id, q.attempt, q.due_at, e.type, e.data, e.created_at
			FROM webhook_queue q JOIN events e ON e.id = q.event_id AND e.app_id = q.app_id
			WHERE q.lease_id = ? ORDER BY q.due_at`, lease),
	})
	if err != nil {
		return nil, err
	}
	jobs, err := store.DecodeAll[job](res[1].Rows)
	for i := range jobs {
		jobs[i].lease = lease
	}
	return jobs, err
}

// Pump fans out new events and makes the attempts due by now+horizon,
// waiting for each to be due, and keeps retrying while the next attempt
// fits before now+budget. Errors are logged: a pump is background work.
func (s *Service) Pump(ctx context.Context, horizon, budget time.Duration) {
	start := s.cfg.now()
	deadline := start.Add(budget)
	// The rows are due at start, so this pump claims them below even when
	// the clock has moved on by a millisecond.
	if err := s.fanout(ctx, start.UnixMilli()); err != nil {
		s.cfg.logf("webhooks: fanout failed: %T", err)
	}
	jobs, err := s.claim(ctx, start.Add(horizon).UnixMilli())
	if err != nil {
		s.cfg.logf("webhooks: claim failed: %T", err)
		return
	}
	var wg sync.WaitGroup
	slots := make(chan struct{}, parallel)
	for _, j := range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.run(ctx, j, deadline, slots)
		}()
	}
	wg.Wait()
}

// Sweep is the every-minute cron job: it makes the attempts due within
// the next minute (attempt 3, and whatever a pump left behind) and drops
// events and fan-out marks past retention.
func (s *Service) Sweep(ctx context.Context) error {
	cut := s.nowMs() - Retention.Milliseconds()
	_, err := s.cfg.db.Batch(ctx, []store.Stmt{
		store.Q(`DELETE FROM events WHERE created_at < ?`, cut),
		store.Q(`DELETE FROM webhook_fanouts WHERE fanned_at < ?`, cut),
	})
	s.Pump(ctx, SweepHorizon, SweepHorizon+s.cfg.timeout+5*time.Second)
	return err
}

// target is what an attempt needs of its webhook, read again before each
// attempt.
type target struct {
	URL     string `json:"url"`
	Secret  string `json:"secret"`
	Enabled int    `json:"enabled"`
	Plan    string `json:"plan"`
}

// run makes a job's attempts while they fit before deadline.
func (s *Service) run(ctx context.Context, j job, deadline time.Time, slots chan struct{}) {
	ev := events.Event{ID: j.EventID, Type: j.Type, CreatedAt: j.CreatedAt, AppID: j.AppID, Data: json.RawMessage(j.Data)}
	body, err := ev.Body()
	if err != nil {
		s.cfg.logf("webhooks: event body failed: %T", err)
		return
	}
	key := []any{j.WebhookID, j.EventID, j.lease}
	const where = ` WHERE webhook_id = ? AND event_id = ? AND lease_id = ?`
	for {
		if wait := time.UnixMilli(j.DueAt).Sub(s.cfg.now()); wait > 0 {
			if s.cfg.sleep(ctx, wait) != nil {
				return
			}
		}
		rw, err := s.cfg.db.First(ctx, store.Q(`SELECT w.url, w.secret, w.enabled, o.plan
			FROM webhook_queue q JOIN webhooks w ON w.id = q.webhook_id
			JOIN apps a ON a.id = w.app_id JOIN accounts o ON o.id = a.account_id
			WHERE q.webhook_id = ? AND q.event_id = ? AND q.lease_id = ?`, key...))
		if err != nil || rw == nil {
			return // gone (deleted, disabled), or the lease passed to another pump
		}
		var t target
		if err := store.Decode(rw, &t); err != nil {
			return
		}
		if t.Enabled != 1 || t.Plan != plans.Scale {
			_, _ = s.cfg.db.Run(ctx, store.Q(`DELETE FROM webhook_queue`+where, key...))
			return
		}
		slots <- struct{}{}
		d := s.send(ctx, t.URL, t.Secret, ev, body, j.Attempt)
		<-slots
		stmts := recordStmts(j.WebhookID, d)
		next := s.cfg.now()
		keep := false
		if d.OK || j.Attempt >= Attempts {
			stmts = append(stmts, store.Q(`DELETE FROM webhook_queue`+where, key...))
		} else {
			next = next.Add(s.cfg.delays[j.Attempt-1])
			keep = !next.Add(s.cfg.timeout).After(deadline)
			leaseUntil := int64(0)
			if keep {
				leaseUntil = next.Add(Lease).UnixMilli()
			}
			stmts = append(stmts, store.Q(`UPDATE webhook_queue SET attempt = attempt + 1, due_at = ?, lease_until = ?,
				lease_id = CASE WHEN ? THEN lease_id END`+where, append([]any{next.UnixMilli(), leaseUntil, keep}, key...)...))
		}
		if _, err := s.cfg.db.Batch(ctx, stmts); err != nil {
			s.cfg.logf("webhooks: record failed: %T", err)
			return
		}
		if !keep {
			return
		}
		j.Attempt++
		j.DueAt = next.UnixMilli()
	}
}

// Middleware starts a pump in the waitUntil of every successful write to
// the dashboard or the tenants API (where events are written), so attempt
// 1 goes out right after the change and attempt 2 ten seconds later.
func (s *Service) Middleware(run Runner) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			sw := &statusWriter{ResponseWriter: w}
			next.ServeHTTP(sw, r)
			if !writes(r) || sw.status < 200 || sw.status > 299 {
				return
			}
			run(r.Context(), func(ctx context.Context) { s.Pump(ctx, 0, RequestBudget) })
		})
	}
}

// writes reports whether r may have written an event.
func writes(r *http.Request) bool {
	switch r.Method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return false
	}
	p := r.URL.Path
	if strings.HasPrefix(p, "/api/waitlist") || strings.HasPrefix(p, "/api/auth/") || strings.HasSuffix(p, "/test") {
		return false
	}
	return strings.HasPrefix(p, "/api/") || strings.HasPrefix(p, "/v1/tenants")
}

type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}
