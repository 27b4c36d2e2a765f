package accounts

import (
	"context"

	"github.com/emojisearch/emojisearch/service/access"
	"github.com/emojisearch/emojisearch/service/metering"
)

// Keys is the repository as the search service's key store
// (access.KeyStore).
func (r *Repo) Keys() access.KeyStore { return keyStore{r} }

// Usage is the repository as the meter's usage store
// (metering.UsageStore).
func (r *Repo) Usage() metering.UsageStore { return usageStore{r} }

type keyStore struct{ r *Repo }

func (k keyStore) LookupKey(ctx context.Context, hash string) (access.KeyRecord, bool, error) {
	rec, found, err := k.r.LookupKey(ctx, hash)
	return access.KeyRecord(rec), found, err
}

type usageStore struct{ r *Repo }

func (u usageStore) AddUsage(ctx context.Context, ds []metering.Delta) error {
	out := make([]Delta, len(ds))
	for i, d := range ds {
		out[i] = Delta{AppID: d.AppID, Period: d.Period, Metric: d.Metric, Count: d.Count}
	}
	return u.r.AddUsage(ctx, out)
}

func (u usageStore) AccountTotal(ctx context.Context, accountID, period, metric string) (int64, error) {
	return u.r.AccountTotal(ctx, accountID, period, metric)
}
