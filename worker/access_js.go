//go:build js && wasm

package main

import (
	"errors"
	"fmt"

	"github.com/emojisearch/emojisearch/service/access"
	"github.com/emojisearch/emojisearch/service/accounts"
	"github.com/emojisearch/emojisearch/service/metering"
	"github.com/emojisearch/emojisearch/service/writebehind"
	"github.com/emojisearch/emojisearch/worker/internal/cf/ratelimit"
	"github.com/emojisearch/emojisearch/worker/internal/jsutil"
)

// newAccess builds the per-instance key resolver (60 s key cache) and
// meter over usage (D1, written through writer), and the guard of the
// metered routes over the rate limiting bindings RL_KEYED and RL_ANON.
// devKeys is the DEV_KEYS value. The guard is returned as a value: routes
// with their own rules (custom pack, tenants API) derive theirs from it and
// share its key cache.
func newAccess(repo *accounts.Repo, usage metering.UsageStore, writer *writebehind.Writer, devKeys string) (access.Guard, *metering.Meter, error) {
	res, err := access.NewResolver(access.NewConfig(repo.Keys()).WithDevKeys(access.ParseDevKeys(devKeys)...))
	if err != nil {
		return access.Guard{}, nil, err
	}
	keyed, err := limiter("RL_KEYED")
	if err != nil {
		return access.Guard{}, nil, err
	}
	anon, err := limiter("RL_ANON")
	if err != nil {
		return access.Guard{}, nil, err
	}
	meter, err := metering.New(metering.NewConfig(usage).WithWriteBehind(writer).WithErrorHook(func(err error) {
		fmt.Println("metering:", err)
	}))
	if err != nil {
		return access.Guard{}, nil, err
	}
	guard := access.NewGuard(res, keyed, anon).WithErrorHook(func(err error) {
		fmt.Println("rate limiting failed open:", err)
	})
	return guard, meter, nil
}

// limiter returns the binding, or nil (no limit) when it is not bound.
func limiter(name string) (access.Limiter, error) {
	l, err := ratelimit.Open(name)
	if errors.Is(err, jsutil.ErrUnbound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return l, nil
}
