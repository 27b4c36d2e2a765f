package ratelimit

import "time"

// Periods the Rate Limiting binding accepts ([[ratelimits]] simple.period in
// wrangler config; miniflare's PeriodType and RatelimitPeriodValues).
const (
	PeriodTenSeconds = 10 * time.Second
	PeriodMinute     = 60 * time.Second
)

// Messages for configurations Cloudflare refuses. The period text is
// miniflare's binding error ("unsupported period: 30"); the others are ours,
// worded after miniflare's config schema (limit must be > 0).
const (
	msgUnsupportedPeriod = "unsupported period: %v"
	msgLimitNotPositive  = "limit must be greater than 0: %d"
	msgScaleNotPositive  = "scale must be at least 1: %d"
	msgNilClock          = "WithClock needs a clock function"
)
