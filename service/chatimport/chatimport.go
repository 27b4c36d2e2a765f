// Package chatimport imports custom emoji from the two chat providers of
// spec 2 (Import rules): the team-chat provider (Slack's emoji.list with a
// user token) and the community-chat provider (Discord's guild emoji with
// a bot token and a guild id).
//
//	POST /api/apps/:id/emoji/import/slack    {token}              (Pro+; developer+)
//	POST /api/apps/:id/emoji/import/discord  {botToken, guildId}  (Pro+; developer+)
//	→ 200 {imported, skipped, remaining, skippedBy: {alias, exists, invalid, limit, failed}}
//
// One call walks the provider's list in name order and stores at most 50
// new emoji, app-wide, each through the one image intake
// (service/imageintake) and the one writer (service/emojistore: the plan
// limit inside the insert, a custom_emoji.created event per emoji in the
// same batch). Entries after the 50th new one count as remaining; call
// again with the same token, and the earlier imports count as exists.
// skippedBy: alias (a provider alias), exists (the shortcode is taken, or
// an earlier entry of the same list normalised to it), invalid (a name
// that breaks the shortcode rule, an unusable entry, an image address off
// the provider's CDN, or an image the intake refuses, such as HTML served
// as a PNG), limit (the plan's custom emoji limit is reached; the rest of
// the list counts here and remaining stays 0), failed (the download did
// not answer 200).
//
// Images come only from the providers' CDN hosts (emoji.slack-edge.com,
// cdn.discordapp.com) over https, without following redirects; the
// download is capped at the intake's 256 KB. Provider base URLs can be
// changed for tests only (WithProviders, which also admits those hosts).
//
// Errors: 400 import_auth_failed (field token, botToken or guildId; the
// message names the provider's error code, never the token), 429
// import_rate_limited with Retry-After: 60, 502 import_unavailable,
// 503 storage_unavailable.
//
// The token is used for the provider call of that request only: it is
// never stored, logged or answered (the logs hold event names and counts).
//
// A call makes one listing request and one download per image it tries:
// at least 51 subrequests for a full batch (more when images fail or are
// refused), over the Workers Free plan's 50 (Paid allows 1,000). On Free
// the downloads past the limit fail and count as failed; the next call
// picks them up, but a list whose first 50 entries keep failing makes no
// progress there.
package chatimport

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"

	"github.com/emojisearch/emojisearch/service/emojistore"
	"github.com/emojisearch/emojisearch/service/imageintake"
	"github.com/emojisearch/emojisearch/service/store"
)

// Doer sends one request without following redirects.
type Doer interface {
	Do(req *http.Request) (*http.Response, error)
}

// Production addresses of the providers.
const (
	SlackAPI   = "https://slack.com/api"
	DiscordAPI = "https://discord.com/api/v10"
	DiscordCDN = "https://cdn.discordapp.com"
	// Batch is the most new emoji one call stores.
	Batch = 50
)

// cdnHosts are the hosts images may come from in production.
var cdnHosts = []string{"emoji.slack-edge.com", "cdn.discordapp.com"}

// Config of an Importer: an immutable value; each With… returns a copy.
type Config struct {
	db                               store.DB
	emoji                            *emojistore.Store
	doer                             Doer
	slackAPI, discordAPI, discordCDN string
	hosts                            map[string]bool // host[:port] → http allowed
	logf                             func(format string, args ...any)
}

// NewConfig imports through emoji (the one writer) over doer.
func NewConfig(db store.DB, emoji *emojistore.Store, doer Doer) Config {
	c := Config{db: db, emoji: emoji, doer: doer, slackAPI: SlackAPI, discordAPI: DiscordAPI,
		discordCDN: DiscordCDN, hosts: map[string]bool{}, logf: func(string, ...any) {}}
	for _, h := range cdnHosts {
		c.hosts[h] = false
	}
	return c
}

// WithProviders points the importer at other provider addresses (tests
// only: fakes that speak the providers' wire formats). Images are then
// also accepted from those hosts, over http too.
func (c Config) WithProviders(slackAPI, discordAPI, discordCDN string) Config {
	hosts := map[string]bool{}
	for h, v := range c.hosts {
		hosts[h] = v
	}
	for _, u := range []string{slackAPI, discordAPI, discordCDN} {
		if p, err := url.Parse(u); err == nil && p.Host != "" {
			hosts[p.Host] = true
		}
	}
	c.slackAPI, c.discordAPI, c.discordCDN, c.hosts = slackAPI, discordAPI, discordCDN, hosts
	return c
}

// WithLog sets where event names and counts are logged.
func (c Config) WithLog(logf func(format string, args ...any)) Config { c.logf = logf; return c }

// Importer runs imports.
type Importer struct{ cfg Config }

// New checks cfg.
func New(cfg Config) (*Importer, error) {
	if cfg.db == nil || cfg.emoji == nil || cfg.doer == nil || cfg.logf == nil {
		return nil, errors.New("chatimport: database, emoji store, HTTP client and log are required")
	}
	return &Importer{cfg: cfg}, nil
}

// Result is the import answer of spec 2.
type Result struct {
	Imported  int            `json:"imported"`
	Skipped   int            `json:"skipped"`
	Remaining int            `json:"remaining"`
	SkippedBy map[string]int `json:"skippedBy"`
}

// Errors of an import (see the package doc for their answers).
var errRateLimited = errors.New("chatimport: the provider is limiting requests")

type authError struct{ field, code string }

func (e *authError) Error() string {
	return "chatimport: the provider refused the credentials: " + e.code
}

type providerError struct{ code string }

func (e *providerError) Error() string { return "chatimport: the provider failed: " + e.code }

// run stores the new entries of list for the app (see the package doc);
// base is the search service's base URL (imageUrl in the events).
func (im *Importer) run(ctx context.Context, appID, accountID, source, base string, list []entry, limit int64) (Result, error) {
	r := Result{SkippedBy: map[string]int{"alias": 0, "exists": 0, "invalid": 0, "limit": 0, "failed": 0}}
	taken, err := im.shortcodes(ctx, appID)
	if err != nil {
		return r, err
	}
	used := int64(0)
	if limit >= 0 {
		if used, err = im.cfg.emoji.Used(ctx, accountID); err != nil {
			return r, err
		}
	}
	for _, e := range list {
		if e.alias {
			r.SkippedBy["alias"]++
			continue
		}
		sc, err := emojistore.NormalizeShortcode(e.name)
		if err != nil || e.unusable || !im.cdn(e.imageURL) {
			r.SkippedBy["invalid"]++
			continue
		}
		if taken[sc] {
			r.SkippedBy["exists"]++
			continue
		}
		taken[sc] = true
		if limit >= 0 && used >= limit {
			r.SkippedBy["limit"]++
			continue
		}
		if r.Imported == Batch {
			r.Remaining++
			continue
		}
		img, declared, ok := im.download(ctx, e.imageURL)
		if !ok {
			r.SkippedBy["failed"]++
			continue
		}
		checked, err := imageintake.Check(img, declared)
		if err != nil {
			r.SkippedBy["invalid"]++
			continue
		}
		_, err = im.cfg.emoji.Create(ctx, emojistore.NewEmoji{AppID: appID, Shortcode: sc, Source: source,
			Image: img, Checked: checked, Limit: limit, Base: base})
		var le *emojistore.LimitError
		switch {
		case err == nil:
			r.Imported++
			used++
		case errors.Is(err, emojistore.ErrShortcodeTaken):
			r.SkippedBy["exists"]++
		case errors.As(err, &le):
			r.SkippedBy["limit"]++
			used = limit
		default:
			return r, err
		}
	}
	for _, n := range r.SkippedBy {
		r.Skipped += n
	}
	return r, nil
}

// shortcodes are the app-wide shortcodes taken now.
func (im *Importer) shortcodes(ctx context.Context, appID string) (map[string]bool, error) {
	res, err := im.cfg.db.All(ctx, store.Q(`SELECT shortcode FROM custom_emoji WHERE app_id = ? AND scope = ''`, appID))
	if err != nil {
		return nil, err
	}
	out := make(map[string]bool, len(res.Rows))
	for _, row := range res.Rows {
		s, err := row.String("shortcode")
		if err != nil {
			return nil, err
		}
		out[s] = true
	}
	return out, nil
}

// cdn reports whether an image address is on a provider's CDN: https
// (http only for test hosts), no user info, an allowed host.
func (im *Importer) cdn(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil || u.User != nil || u.Opaque != "" {
		return false
	}
	httpOK, ok := im.cfg.hosts[u.Host]
	return ok && (u.Scheme == "https" || (u.Scheme == "http" && httpOK))
}

// download fetches an image without the token, redirects not followed,
// at most one byte past the intake's limit (the intake refuses it then).
func (im *Importer) download(ctx context.Context, u string) ([]byte, string, bool) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, "", false
	}
	res, err := im.cfg.doer.Do(req)
	if err != nil {
		return nil, "", false
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return nil, "", false
	}
	b, err := io.ReadAll(io.LimitReader(res.Body, imageintake.MaxBytes+1))
	if err != nil {
		return nil, "", false
	}
	return b, res.Header.Get("Content-Type"), true
}

// logResult logs counts only.
func (im *Importer) logResult(provider string, r Result) {
	im.cfg.logf("chatimport: %s import: imported=%d skipped=%d remaining=%d", provider, r.Imported, r.Skipped,
		r.Remaining)
}
