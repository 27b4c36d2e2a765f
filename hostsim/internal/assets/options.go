package assets

import (
	"fmt"
	"strings"
)

// HTML handling modes (assets.html_handling).
const (
	AutoTrailingSlash  = "auto-trailing-slash"
	ForceTrailingSlash = "force-trailing-slash"
	DropTrailingSlash  = "drop-trailing-slash"
	HTMLHandlingNone   = "none"
)

// Not-found handling modes (assets.not_found_handling).
const (
	SinglePageApplication = "single-page-application"
	NotFoundPage          = "404-page"
	NotFoundNone          = "none"
)

// Limits on run_worker_first rules, from workers-shared's _routes.json rules.
const (
	MaxRoutingRules      = 100
	MaxRoutingRuleLength = 100
)

// Options configure a Server. The zero value means wrangler's defaults:
// auto-trailing-slash, no not-found handling, assets before the Worker.
// Options is a value: every With… returns a changed copy.
type Options struct {
	HTMLHandling     string   // "" = auto-trailing-slash
	NotFoundHandling string   // "" = none
	RunWorkerFirst   bool     // run_worker_first = true
	WorkerFirst      []string // run_worker_first = ["/api/*", "!/api/docs"]
	// NavigationFallback is true when the compatibility flag
	// assets_navigation_prefers_asset_serving is on (default from 2025-04-01,
	// see NavigationFallbackFor): browser navigations (Sec-Fetch-Mode:
	// navigate) to a missing path get the SPA index or the 404 page instead
	// of the Worker. Other requests for a missing path go to the Worker,
	// unless WorkerFirst rules are set: then not_found_handling always
	// applies, as in Workers.
	NavigationFallback bool
}

// WithHTMLHandling sets assets.html_handling.
func (o Options) WithHTMLHandling(mode string) Options {
	o.HTMLHandling = mode
	return o
}

// WithNotFoundHandling sets assets.not_found_handling.
func (o Options) WithNotFoundHandling(mode string) Options {
	o.NotFoundHandling = mode
	return o
}

// WithRunWorkerFirst sets run_worker_first = true.
func (o Options) WithRunWorkerFirst(all bool) Options {
	o.RunWorkerFirst = all
	return o
}

// WithWorkerFirst sets run_worker_first to a list of path globs.
func (o Options) WithWorkerFirst(patterns ...string) Options {
	o.WorkerFirst = append([]string(nil), patterns...)
	return o
}

// WithNavigationFallback sets the assets_navigation_prefers_asset_serving behaviour.
func (o Options) WithNavigationFallback(on bool) Options {
	o.NavigationFallback = on
	return o
}

func (o Options) htmlHandling() string {
	if o.HTMLHandling == "" {
		return AutoTrailingSlash
	}
	return o.HTMLHandling
}

func (o Options) notFoundHandling() string {
	if o.NotFoundHandling == "" {
		return NotFoundNone
	}
	return o.NotFoundHandling
}

// Problems lists everything wrong with the options, in the words wrangler
// uses where it has them; nil when they are usable.
func (o Options) Problems() []string {
	var out []string
	switch o.htmlHandling() {
	case AutoTrailingSlash, ForceTrailingSlash, DropTrailingSlash, HTMLHandlingNone:
	default:
		out = append(out, fmt.Sprintf("html_handling %q: want one of %q, %q, %q, %q",
			o.HTMLHandling, AutoTrailingSlash, ForceTrailingSlash, DropTrailingSlash, HTMLHandlingNone))
	}
	switch o.notFoundHandling() {
	case SinglePageApplication, NotFoundPage, NotFoundNone:
	default:
		out = append(out, fmt.Sprintf("not_found_handling %q: want one of %q, %q, %q",
			o.NotFoundHandling, SinglePageApplication, NotFoundPage, NotFoundNone))
	}
	if o.WorkerFirst != nil {
		if o.RunWorkerFirst {
			out = append(out, "run_worker_first: give either true or a list of rules, not both")
		}
		out = append(out, RoutingRuleProblems(o.WorkerFirst)...)
	}
	return out
}

// RoutingRuleProblems checks run_worker_first rules as wrangler does: each
// starts with "/" (run the Worker) or "!/" (serve assets), at least one is
// positive, none repeats or is made redundant by a "*" rule, and there are at
// most 100 rules of at most 100 characters.
func RoutingRuleProblems(rules []string) []string {
	if len(rules) == 0 {
		return []string{"run_worker_first: no rules were provided; must provide at least 1 rule"}
	}
	var out []string
	if len(rules) > MaxRoutingRules {
		out = append(out, fmt.Sprintf("run_worker_first: %d rules provided exceeds max of %d", len(rules), MaxRoutingRules))
	}
	var positive, negative []string
	for _, r := range rules {
		switch {
		case strings.HasPrefix(r, "!/"):
			negative = append(negative, r)
		case strings.HasPrefix(r, "/"):
			positive = append(positive, r)
		case strings.HasPrefix(r, "!"):
			out = append(out, fmt.Sprintf("run_worker_first: '%s': negative rules must start with '!/'", r))
		default:
			out = append(out, fmt.Sprintf("run_worker_first: '%s': rules must start with '/' or '!/'", r))
		}
	}
	if len(negative) > 0 && len(positive) == 0 {
		out = append(out, "run_worker_first: only negative rules were provided; must provide at least 1 non-negative rule")
	}
	for _, group := range [][]string{positive, negative} {
		seen := map[string]bool{}
		for _, r := range group {
			if len(r) > MaxRoutingRuleLength {
				out = append(out, fmt.Sprintf("run_worker_first: '%s': all rules must be less than %d characters in length", r, MaxRoutingRuleLength))
			}
			if seen[r] {
				out = append(out, fmt.Sprintf("run_worker_first: '%s': rule is a duplicate; rules must be unique", r))
			}
			seen[r] = true
			if strings.HasSuffix(r, "*") {
				for _, other := range group {
					if other != r && strings.HasPrefix(other, r[:len(r)-1]) {
						out = append(out, fmt.Sprintf("run_worker_first: '%s': rule '%s' makes it redundant", other, r))
					}
				}
			}
		}
	}
	return out
}

// Compatibility flag behind Options.NavigationFallback.
const (
	navigationFlag        = "assets_navigation_prefers_asset_serving"
	navigationFlagOff     = "assets_navigation_has_no_effect"
	navigationFlagDefault = "2025-04-01"
)

// NavigationFallbackFor tells whether a Worker with this compatibility date
// and these flags gets Options.NavigationFallback: on with the enable flag,
// or from 2025-04-01 unless the disable flag is set.
func NavigationFallbackFor(compatibilityDate string, flags []string) bool {
	for _, f := range flags {
		if f == navigationFlag {
			return true
		}
	}
	for _, f := range flags {
		if f == navigationFlagOff {
			return false
		}
	}
	return compatibilityDate >= navigationFlagDefault
}
