package hostsim

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/emojisearch/emojisearch/hostsim/internal/binding"
	"github.com/emojisearch/emojisearch/hostsim/internal/d1"
	"github.com/emojisearch/emojisearch/hostsim/internal/jsrt"
	"github.com/emojisearch/emojisearch/hostsim/internal/r2"
	"github.com/emojisearch/emojisearch/hostsim/internal/ratelimit"
)

type namedBinding struct {
	name string
	make func(binding.Realm) *jsrt.Object
}

// openDataBindings opens D1 (applying migrations as `wrangler d1
// migrations apply --local` does), R2, rate limiters and the Cache API.
func (s *Simulator) openDataBindings(ctx context.Context) ([]namedBinding, error) {
	var out []namedBinding
	for _, spec := range s.wcfg.D1Databases {
		dir := filepath.Join(s.cfg.stateDir, "d1")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
		file := filepath.Join(dir, safeName(spec.LocalID())+".sqlite")
		s.freshStore("D1 "+spec.Binding, file)
		db, err := d1.Open(file)
		if err != nil {
			return nil, fmt.Errorf("hostsim: D1 %s: %w", spec.Binding, err)
		}
		s.addCloser(db)
		if _, err := os.Stat(spec.MigrationsDir); err == nil {
			applied, err := d1.ApplyMigrations(ctx, db, spec.MigrationsDir, d1.WithMigrationsTable(spec.MigrationsTable))
			if err != nil {
				return nil, fmt.Errorf("hostsim: D1 %s migrations: %w", spec.Binding, err)
			}
			for _, name := range applied {
				fmt.Fprintf(s.cfg.stderr, "hostsim: D1 %s: applied migration %s\n", spec.Binding, name)
			}
		}
		out = append(out, namedBinding{spec.Binding, func(r binding.Realm) *jsrt.Object { return r.D1(db) }})
	}
	for _, spec := range s.wcfg.R2Buckets {
		dir := filepath.Join(s.cfg.stateDir, "r2", safeName(firstNonEmpty(spec.BucketName, spec.Binding)))
		s.freshStore("R2 "+spec.Binding, dir)
		b, err := r2.Open(dir)
		if err != nil {
			return nil, fmt.Errorf("hostsim: R2 %s: %w", spec.Binding, err)
		}
		out = append(out, namedBinding{spec.Binding, func(r binding.Realm) *jsrt.Object { return r.R2(b) }})
	}
	for _, spec := range s.wcfg.RateLimits {
		l, err := ratelimit.New(int(spec.Limit), time.Duration(spec.Period)*time.Second, ratelimit.WithScale(s.cfg.rateScale))
		if err != nil {
			return nil, fmt.Errorf("hostsim: rate limit %s: %w", spec.Name, err)
		}
		out = append(out, namedBinding{spec.Name, func(r binding.Realm) *jsrt.Object { return r.RateLimit(l) }})
	}
	return out, nil
}
