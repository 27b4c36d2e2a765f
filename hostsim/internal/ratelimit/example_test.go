package ratelimit_test

import (
	"fmt"
	"time"

	"github.com/emojisearch/emojisearch/hostsim/internal/ratelimit"
)

func ExampleLimiter_Limit() {
	now := time.Unix(1_800_000_000-1_800_000_000%60, 0)
	l, err := ratelimit.NewWithConfig(2, ratelimit.PeriodMinute, ratelimit.NewConfig().WithClock(func() time.Time { return now }))
	if err != nil {
		panic(err)
	}
	fmt.Println(l.Limit("ip:203.0.113.7"), l.Limit("ip:203.0.113.7"), l.Limit("ip:203.0.113.7"))
	now = now.Add(time.Minute) // the next aligned window
	fmt.Println(l.Limit("ip:203.0.113.7"))
	// Output:
	// true true false
	// true
}
