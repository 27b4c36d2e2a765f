package access

import (
	"fmt"
	"github.com/emojisearch/emojisearch/service/internal/testclock"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/service/apikey"
)

func TestStoreDownButCachedIsKeyed(t *testing.T) {
	w := newWorld(t)
	r := req{auth: bearerOf(skProd)}
	require.Equal(t, http.StatusOK, w.do(t, r).Code)
	assert.False(t, w.sawCaller.Anonymous)

	w.store.setDown(true)
	w.clock.Add(59 * time.Second)
	require.Equal(t, http.StatusOK, w.do(t, r).Code)
	assert.Equal(t, "k_secret", w.sawCaller.KeyID, "a fresh cache entry serves while the store is down")

	// Past the TTL the entry is not reused, even with the store down.
	w.clock.Add(2 * time.Second)
	require.Equal(t, http.StatusOK, w.do(t, r).Code)
	assert.Equal(t, Caller{Anonymous: true, AnonReason: AnonStoreUnavailable}, w.sawCaller)
}

func TestCacheExpiryShowsRevocation(t *testing.T) {
	w := newWorld(t)
	r := req{query: q(pkProd), origin: []string{site}}
	require.Equal(t, http.StatusOK, w.do(t, r).Code)
	require.Equal(t, 1, w.store.count())

	rec := KeyRecord{KeyID: "k_prod", AppID: "app_k_prod", AccountID: "acct_1", Kind: apikey.Publishable,
		AllowedOrigins: []string{site}, Revoked: true, AppEnvironment: EnvProduction}
	w.store.set(apikey.Hash(pkProd), rec)

	w.clock.Add(60 * time.Second)
	assert.Equal(t, http.StatusOK, w.do(t, r).Code, "revocation may take up to the TTL (rule 4)")
	assert.Equal(t, 1, w.store.count(), "served from the cache")

	w.clock.Add(time.Second)
	assertRefused(t, w.do(t, r), ErrRevokedKey)
	assert.Equal(t, 2, w.store.count())
}

func TestUnknownKeysAreCached(t *testing.T) {
	w := newWorld(t)
	r := req{auth: bearerOf(skUnknown)}
	for range 5 {
		assertRefused(t, w.do(t, r), ErrUnknownKey)
	}
	assert.Equal(t, 1, w.store.count())

	// A key created after the miss works once the negative entry expires.
	w.store.set(apikey.Hash(skUnknown), KeyRecord{KeyID: "k_new", AppID: "app_new", Kind: apikey.Secret,
		AppEnvironment: EnvProduction})
	w.clock.Add(61 * time.Second)
	require.Equal(t, http.StatusOK, w.do(t, r).Code)
	assert.Equal(t, "k_new", w.sawCaller.KeyID)
}

func TestStoreErrorsAreNotCached(t *testing.T) {
	w := newWorld(t)
	w.store.setDown(true)
	r := req{auth: bearerOf(skProd)}
	w.do(t, r)
	assert.True(t, w.sawCaller.Anonymous)
	w.store.setDown(false)
	w.do(t, r)
	assert.Equal(t, "k_secret", w.sawCaller.KeyID, "the next request asks the store again")
}

func TestCacheIsBounded(t *testing.T) {
	store := newFakeStore()
	var keys []string
	for i := range 40 {
		full := fmt.Sprintf("%s%032d", apikey.SecretPrefix, i)
		keys = append(keys, full)
		if i < 20 {
			store.set(apikey.Hash(full), KeyRecord{KeyID: fmt.Sprint("k", i), AppID: "a", Kind: apikey.Secret})
		}
	}
	clock := testclock.New(time.Unix(0, 0))
	res, err := NewResolver(NewConfig(store).WithClock(clock.Now).WithCacheSize(8))
	require.NoError(t, err)
	for _, k := range keys {
		r, _ := http.NewRequest(http.MethodGet, "/v1/search", nil)
		r.Header.Set("Authorization", "Bearer "+k)
		_, _ = res.Resolve(r)
	}
	assert.Equal(t, 8, res.known.len())
	assert.Equal(t, 2, res.unknown.len(), "unknown keys have their own, smaller LRU")

	// The most recent known key is still cached; the first one was evicted.
	before := store.count()
	for _, k := range []string{keys[19], keys[0]} {
		r, _ := http.NewRequest(http.MethodGet, "/v1/search", nil)
		r.Header.Set("Authorization", "Bearer "+k)
		_, err := res.Resolve(r)
		require.NoError(t, err)
	}
	assert.Equal(t, before+1, store.count())
}

// TestResolveConcurrently hammers one resolver from many goroutines (run
// with -race).
func TestResolveConcurrently(t *testing.T) {
	w := newWorld(t)
	var wg sync.WaitGroup
	for i := range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range 20 {
				r, _ := http.NewRequest(http.MethodGet, "/v1/search", nil)
				switch (i + j) % 3 {
				case 0:
					r.Header.Set("Authorization", "Bearer "+skProd)
				case 1:
					r.Header.Set("Authorization", "Bearer "+skUnknown)
				default:
					w.clock.Add(time.Second)
				}
				_, _ = w.res.Resolve(r)
			}
		}()
	}
	wg.Wait()
}

func TestNewResolverReportsEveryProblem(t *testing.T) {
	secretish := key(apikey.SecretPrefix, 'Q') + "!"
	_, err := NewResolver(Config{}.WithDevKeys("nope", pkDevKey, secretish).WithCacheTTL(0).WithCacheSize(1))
	require.Error(t, err)
	msg := err.Error()
	for _, want := range []string{"no key store", "no clock", "TTL", "cache size", "development key 1 of 3", "development key 3 of 3"} {
		assert.Contains(t, msg, want)
	}
	assert.NotContains(t, msg, secretish[8:], "a dev key is never echoed")
	assert.NotContains(t, msg, "development key 2 of 3")
}

func TestParseDevKeys(t *testing.T) {
	assert.Equal(t, []string{"a", "b", "c"}, ParseDevKeys(" a,b\n c ,, "))
	assert.Empty(t, ParseDevKeys(""))
}
