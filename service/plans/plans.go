// Package plans is the one table of plan limits (spec 1 Limits, spec 2).
// Spec 1 leaves the numeric monthly limits "not shown"; the values below
// are ours, chosen so each plan is a clear step up from the one before.
// Every limit a route enforces is read from here.
package plans

import "fmt"

// Plan names, cheapest first.
const (
	Free  = "free"
	Solo  = "solo"
	Pro   = "pro"
	Scale = "scale"
)

// Metric names of monthly usage.
const (
	SemanticCalls        = "semantic_calls"
	ImageClassifications = "image_classifications"
	CustomEmoji          = "custom_emoji"
)

// Unlimited marks a limit without a ceiling (null in JSON).
const Unlimited = -1

// Limits of one plan.
type Limits struct {
	Name string
	Rank int // 0 free … 3 scale
	// MaxApps is the number of apps an account may own.
	MaxApps int
	// SemanticCalls and ImageClassifications are monthly counts over all
	// apps of the account.
	SemanticCalls        int64
	ImageClassifications int64
	// CustomEmoji is the number of custom emoji stored at once over all
	// apps of the account; Unlimited means no ceiling.
	CustomEmoji int64
	// Teams reports whether team memberships count (Pro, Scale).
	Teams bool
	// Analytics reports whether the analytics route answers (Pro, Scale).
	Analytics bool
	// AnalyticsWindowDays cuts the analytics window (spec 2: Pro 30,
	// Scale 365).
	AnalyticsWindowDays int
	// QueryRowDays is how long daily query rows are kept (spec 2: Free and
	// Solo 7, Pro 30, Scale 365).
	QueryRowDays int
	// Tenants and Webhooks report the Scale-only features.
	Tenants  bool
	Webhooks bool
	// CustomEmojiImport reports whether chat-provider imports work (Pro+).
	CustomEmojiImport bool
}

var table = []Limits{
	{Name: Free, Rank: 0, MaxApps: 2, SemanticCalls: 10_000, ImageClassifications: 100,
		CustomEmoji: 0, QueryRowDays: 7},
	{Name: Solo, Rank: 1, MaxApps: 5, SemanticCalls: 100_000, ImageClassifications: 1_000,
		CustomEmoji: 100, QueryRowDays: 7},
	{Name: Pro, Rank: 2, MaxApps: 20, SemanticCalls: 1_000_000, ImageClassifications: 10_000,
		CustomEmoji: 1_000, Teams: true, Analytics: true, AnalyticsWindowDays: 30, QueryRowDays: 30,
		CustomEmojiImport: true},
	{Name: Scale, Rank: 3, MaxApps: 100, SemanticCalls: 10_000_000, ImageClassifications: 100_000,
		CustomEmoji: 10_000, Teams: true, Analytics: true, AnalyticsWindowDays: 365, QueryRowDays: 365,
		Tenants: true, Webhooks: true, CustomEmojiImport: true},
}

// All returns every plan, cheapest first.
func All() []Limits { return append([]Limits(nil), table...) }

// Get returns the limits of a plan by name.
func Get(name string) (Limits, error) {
	for _, l := range table {
		if l.Name == name {
			return l, nil
		}
	}
	return Limits{}, fmt.Errorf("plans: unknown plan %q", name)
}

// Monthly returns the monthly limit of a metered metric (SemanticCalls or
// ImageClassifications), and CustomEmoji's stored-count limit.
func (l Limits) Monthly(metric string) (int64, bool) {
	switch metric {
	case SemanticCalls:
		return l.SemanticCalls, true
	case ImageClassifications:
		return l.ImageClassifications, true
	case CustomEmoji:
		return l.CustomEmoji, true
	}
	return 0, false
}

// Cheapest returns the cheapest plan that satisfies ok, at or above rank
// from; false when none does (used for 402 plan_required's plan field).
func Cheapest(from int, ok func(Limits) bool) (Limits, bool) {
	for _, l := range table {
		if l.Rank >= from && ok(l) {
			return l, true
		}
	}
	return Limits{}, false
}
