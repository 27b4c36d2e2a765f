package kv_test

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/emojisearch/emojisearch/hostsim/internal/kv"
)

func ExampleNamespace() {
	dir, _ := os.MkdirTemp("", "kv-example")
	defer os.RemoveAll(dir)
	now := time.Unix(1_800_000_000, 0)
	ns, _ := kv.OpenWithConfig(dir, kv.NewConfig().WithClock(func() time.Time { return now }))
	ctx := context.Background()

	_ = ns.Put(ctx, "alias:cat", []byte("🐱"), kv.PutOptions{ExpirationTTL: 60})
	e, found, _ := ns.Get(ctx, "alias:cat")
	fmt.Println(string(e.Value), found, e.Expiration-now.Unix())

	err := ns.Put(ctx, "alias:dog", []byte("🐶"), kv.PutOptions{ExpirationTTL: 30})
	fmt.Println(err)

	now = now.Add(time.Minute)
	_, found, _ = ns.Get(ctx, "alias:cat")
	fmt.Println(found)
	// Output:
	// 🐱 true 60
	// kv: KV PUT failed: 400 Invalid expiration_ttl of 30. Expiration TTL must be at least 60.
	// false
}
