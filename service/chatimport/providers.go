package chatimport

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
)

// entry is one emoji a provider listed.
type entry struct {
	name     string
	imageURL string // "" for an alias
	alias    bool
	unusable bool // listed but not importable (unavailable, no id)
}

// Provider names, also the emoji's source.
const (
	Slack   = "slack"
	Discord = "discord"
)

// listSlack calls emoji.list with a user token (FACTS.md wire format):
// errors are HTTP 200 {"ok": false, "error": code}; rate limits are 429.
func (im *Importer) listSlack(ctx context.Context, token string) ([]entry, error) {
	res, body, err := im.get(ctx, im.cfg.slackAPI+"/emoji.list", "Bearer "+token)
	if err != nil {
		return nil, err
	}
	if res.StatusCode == http.StatusTooManyRequests {
		return nil, errRateLimited
	}
	if res.StatusCode != http.StatusOK {
		return nil, &providerError{code: "http_" + strconv.Itoa(res.StatusCode)}
	}
	var out struct {
		OK    bool              `json:"ok"`
		Error string            `json:"error"`
		Emoji map[string]string `json:"emoji"`
	}
	if err := json.Unmarshal(body, &out); err != nil {
		return nil, &providerError{code: "bad_answer"}
	}
	if !out.OK {
		switch out.Error {
		case "ratelimited":
			return nil, errRateLimited
		case "invalid_auth", "not_authed", "token_revoked", "token_expired", "account_inactive", "missing_scope",
			"no_permission", "not_allowed_token_type", "ekm_access_denied", "team_access_not_granted":
			return nil, &authError{field: "token", code: safeCode(out.Error)}
		}
		return nil, &providerError{code: safeCode(out.Error)}
	}
	list := make([]entry, 0, len(out.Emoji))
	for name, v := range out.Emoji {
		if strings.HasPrefix(v, "alias:") {
			list = append(list, entry{name: name, alias: true})
			continue
		}
		list = append(list, entry{name: name, imageURL: v})
	}
	sortEntries(list)
	return list, nil
}

// listDiscord lists a guild's emoji with a bot token (FACTS.md wire
// format) and builds each image's CDN address at size 128, gif when
// animated, else png.
func (im *Importer) listDiscord(ctx context.Context, botToken, guildID string) ([]entry, error) {
	res, body, err := im.get(ctx, im.cfg.discordAPI+"/guilds/"+url.PathEscape(guildID)+"/emojis", "Bot "+botToken)
	if err != nil {
		return nil, err
	}
	var fail struct {
		Message string `json:"message"`
		Code    int    `json:"code"`
	}
	_ = json.Unmarshal(body, &fail)
	switch res.StatusCode {
	case http.StatusOK:
	case http.StatusTooManyRequests:
		return nil, errRateLimited
	case http.StatusUnauthorized:
		return nil, &authError{field: "botToken", code: "discord_" + strconv.Itoa(fail.Code) + "_unauthorized"}
	case http.StatusForbidden, http.StatusNotFound:
		// 50001 Missing Access (the bot is not in the server), 10004
		// Unknown Guild.
		return nil, &authError{field: "guildId", code: "discord_" + strconv.Itoa(fail.Code)}
	default:
		return nil, &providerError{code: "http_" + strconv.Itoa(res.StatusCode)}
	}
	var out []struct {
		ID        string `json:"id"`
		Name      string `json:"name"`
		Animated  bool   `json:"animated"`
		Available *bool  `json:"available"`
	}
	if err := json.Unmarshal(body, &out); err != nil {
		return nil, &providerError{code: "bad_answer"}
	}
	list := make([]entry, 0, len(out))
	for _, e := range out {
		ext := "png"
		if e.Animated {
			ext = "gif"
		}
		en := entry{name: e.Name, imageURL: im.cfg.discordCDN + "/emojis/" + url.PathEscape(e.ID) + "." + ext + "?size=128"}
		if !snowflake(e.ID) || (e.Available != nil && !*e.Available) {
			en.unusable = true
		}
		list = append(list, en)
	}
	sortEntries(list)
	return list, nil
}

// get sends one GET with the token and reads at most 4 MB of the answer.
func (im *Importer) get(ctx context.Context, u, authorization string) (*http.Response, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, nil, &providerError{code: "bad_url"}
	}
	req.Header.Set("Authorization", authorization)
	req.Header.Set("Accept", "application/json")
	res, err := im.cfg.doer.Do(req)
	if err != nil {
		return nil, nil, &providerError{code: "no_answer"}
	}
	defer res.Body.Close()
	body, err := io.ReadAll(io.LimitReader(res.Body, 4<<20))
	if err != nil {
		return nil, nil, &providerError{code: "no_answer"}
	}
	return res, body, nil
}

// sortEntries orders a listing by name so every call of an import walks
// the same order.
func sortEntries(list []entry) {
	sort.Slice(list, func(i, j int) bool { return list[i].name < list[j].name })
}

// snowflake: a Discord id is 1 to 20 decimal digits.
func snowflake(s string) bool {
	if s == "" || len(s) > 20 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// safeCode keeps a provider error code printable and short: it goes into
// a message and a log line, and must never carry anything else.
func safeCode(s string) string {
	var b strings.Builder
	for i := 0; i < len(s) && b.Len() < 40; i++ {
		if c := s[i]; c == '_' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' {
			b.WriteByte(c)
		}
	}
	if b.Len() == 0 {
		return "unknown"
	}
	return b.String()
}
