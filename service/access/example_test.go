package access_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/emojisearch/emojisearch/service/access"
	"github.com/emojisearch/emojisearch/service/apikey"
	"github.com/emojisearch/emojisearch/service/plans"
)

// mapStore is a KeyStore in memory.
type mapStore map[string]access.KeyRecord

func (s mapStore) LookupKey(_ context.Context, hash string) (access.KeyRecord, bool, error) {
	rec, ok := s[hash]
	return rec, ok, nil
}

// Guarding a metered route; the worker passes its RL_KEYED and RL_ANON
// bindings as the limiters (nil here: no limit).
func ExampleGuard() {
	secret := apikey.SecretPrefix + strings.Repeat("s", 32)
	store := mapStore{apikey.Hash(secret): {KeyID: "key_1", AppID: "app_1", AccountID: "acct_1",
		Kind: apikey.Secret, AppEnvironment: access.EnvProduction, Plan: plans.Pro}}
	res, err := access.NewResolver(access.NewConfig(store))
	if err != nil {
		panic(err)
	}
	guard := access.NewGuard(res, nil, nil)
	search := guard.Wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, _ := access.FromContext(r.Context())
		fmt.Println("caller:", c.KeyID, c.AppID, c.Anonymous)
	}))

	r := httptest.NewRequest(http.MethodGet, "https://api.example/v1/search?q=cat", nil)
	r.Header.Set("Authorization", "Bearer "+secret)
	search.ServeHTTP(httptest.NewRecorder(), r)

	r = httptest.NewRequest(http.MethodGet, "https://api.example/v1/search?q=cat&key="+secret, nil)
	w := httptest.NewRecorder()
	search.ServeHTTP(w, r)
	fmt.Println(w.Code, strings.TrimSpace(w.Body.String())[:40])
	// Output:
	// caller: key_1 app_1 false
	// 403 {"error":"Secret keys must never be sent
}
