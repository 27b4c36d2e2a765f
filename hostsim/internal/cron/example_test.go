package cron_test

import (
	"fmt"
	"time"

	"github.com/emojisearch/emojisearch/hostsim/internal/cron"
)

func ExampleSchedule_Next() {
	s, err := cron.Parse("0 18 * * FRIL") // 18:00 UTC on the last Friday of each month
	if err != nil {
		fmt.Println(err)
		return
	}
	t := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	for i := 0; i < 3; i++ {
		t = s.Next(t)
		fmt.Println(t.Format(time.RFC3339))
	}
	// Output:
	// 2026-03-27T18:00:00Z
	// 2026-04-24T18:00:00Z
	// 2026-05-29T18:00:00Z
}
