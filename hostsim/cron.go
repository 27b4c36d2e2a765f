package hostsim

import (
	"context"
	"fmt"
	"time"

	"github.com/emojisearch/emojisearch/hostsim/internal/cron"
)

// cronClock is the time source of the cron loop.
type cronClock struct {
	now   func() time.Time
	after func(time.Duration) <-chan time.Time
}

// cronTime is a test seam: tests move a fake clock instead of waiting for
// minutes to pass.
var cronTime = cronClock{now: time.Now, after: time.After}

// startCrons fires triggers.crons on real time (UTC), each at most once per
// matching minute, as Cloudflare does.
func (s *Simulator) startCrons() error {
	clock := cronTime
	type job struct {
		expr  string
		sched cron.Schedule
	}
	var jobs []job
	for _, expr := range s.wcfg.Crons {
		sched, err := cron.Parse(expr)
		if err != nil {
			return fmt.Errorf("hostsim: triggers.crons %q: %w", expr, err)
		}
		jobs = append(jobs, job{expr, sched})
	}
	ctx, cancel := context.WithCancel(context.Background())
	s.cronStop = cancel
	s.cronDone = make(chan struct{})
	go func() {
		defer close(s.cronDone)
		for {
			now := clock.now().UTC()
			next := time.Time{}
			for _, j := range jobs {
				if t := j.sched.Next(now); next.IsZero() || t.Before(next) {
					next = t
				}
			}
			select {
			case <-ctx.Done():
				return
			case <-clock.after(next.Sub(now)):
			}
			for _, j := range jobs {
				if j.sched.Matches(next) {
					if err := s.iso.Scheduled(ctx, j.expr, next); err != nil {
						fmt.Fprintf(s.cfg.stderr, "hostsim: cron %q: %v\n", j.expr, err)
					}
				}
			}
		}
	}()
	return nil
}
