package chatimport

import (
	"errors"
	"net/http"

	"github.com/emojisearch/emojisearch/service/accounts"
	"github.com/emojisearch/emojisearch/service/dashboard"
	"github.com/emojisearch/emojisearch/service/emojistore"
	"github.com/emojisearch/emojisearch/service/httpx"
	"github.com/emojisearch/emojisearch/service/plans"
)

// APIRoutes are the two import routes, for the dashboard's /api table
// (dashboard.Routes applies the /api conventions).
func (im *Importer) APIRoutes(d *dashboard.Dashboard) []dashboard.Route {
	var out []dashboard.Route
	for _, p := range []string{Slack, Discord} {
		out = append(out, dashboard.Route{Pattern: "/api/apps/:id/emoji/import/" + p,
			Methods: map[string]http.HandlerFunc{http.MethodPost: im.handler(d, p)}})
	}
	return out
}

func (im *Importer) handler(d *dashboard.Dashboard, provider string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		caller, _, ok := d.Caller(w, r)
		if !ok {
			return
		}
		app, ok := d.AppFor(w, r, httpx.Param(r, "id"), caller, accounts.RoleDeveloper)
		if !ok {
			return
		}
		lim, err := plans.Get(app.OwnerPlan)
		if err != nil || !lim.CustomEmojiImport {
			dashboard.Fail(w, http.StatusPaymentRequired, dashboard.Error{Code: "plan_required",
				Message: "Imports need the Pro plan.", Plan: plans.Pro})
			return
		}
		var body struct {
			Token    *string `json:"token"`
			BotToken *string `json:"botToken"`
			GuildID  *string `json:"guildId"`
		}
		if !dashboard.DecodeJSON(w, r, &body) {
			return
		}
		var list []entry
		if provider == Slack {
			if !credential(w, "token", body.Token) {
				return
			}
			list, err = im.listSlack(r.Context(), *body.Token)
		} else {
			if !credential(w, "botToken", body.BotToken) {
				return
			}
			if body.GuildID == nil || !snowflake(*body.GuildID) {
				invalid(w, "guildId", "guildId is the server's numeric id.")
				return
			}
			list, err = im.listDiscord(r.Context(), *body.BotToken, *body.GuildID)
		}
		if err == nil {
			var res Result
			res, err = im.run(r.Context(), app.ID, app.AccountID, provider, emojistore.BaseURL(r), list, lim.CustomEmoji)
			if err == nil {
				im.logResult(provider, res)
				httpx.JSON(w, http.StatusOK, res)
				return
			}
		}
		im.fail(w, provider, err)
	}
}

// credential answers 400 for a missing or malformed token (1 to 512
// printable ASCII characters, no spaces).
func credential(w http.ResponseWriter, field string, v *string) bool {
	ok := v != nil && len(*v) > 0 && len(*v) <= 512
	for i := 0; ok && i < len(*v); i++ {
		ok = (*v)[i] > ' ' && (*v)[i] < 0x7f
	}
	if !ok {
		invalid(w, field, field+" is required: the provider token, as the provider issued it.")
	}
	return ok
}

func invalid(w http.ResponseWriter, field, msg string) {
	dashboard.Fail(w, http.StatusBadRequest, dashboard.Error{Code: "invalid_request", Message: msg, Field: field})
}

// fail answers an import error; logs name the provider and the error kind.
func (im *Importer) fail(w http.ResponseWriter, provider string, err error) {
	var ae *authError
	var pe *providerError
	switch {
	case errors.As(err, &ae):
		im.cfg.logf("chatimport: %s import refused: %s", provider, ae.code)
		dashboard.Fail(w, http.StatusBadRequest, dashboard.Error{Code: "import_auth_failed", Field: ae.field,
			Message: "The provider refused the request (" + ae.code + ")."})
	case errors.Is(err, errRateLimited):
		im.cfg.logf("chatimport: %s import rate limited", provider)
		w.Header().Set("Retry-After", "60")
		dashboard.Fail(w, http.StatusTooManyRequests, dashboard.Error{Code: "import_rate_limited",
			Message: "The provider is limiting requests; try again in a minute."})
	case errors.As(err, &pe):
		im.cfg.logf("chatimport: %s import unavailable: %s", provider, pe.code)
		dashboard.Fail(w, http.StatusBadGateway, dashboard.Error{Code: "import_unavailable",
			Message: "The provider did not answer as expected (" + pe.code + ")."})
	case errors.Is(err, emojistore.ErrStorage):
		im.cfg.logf("chatimport: %s import: image store unavailable", provider)
		dashboard.Fail(w, http.StatusServiceUnavailable, dashboard.Error{Code: "storage_unavailable",
			Message: "Images cannot be stored right now; try again."})
	default:
		im.cfg.logf("chatimport: %s import failed: %T", provider, err)
		dashboard.Fail(w, http.StatusInternalServerError, dashboard.Error{Code: "internal_error",
			Message: "Something went wrong; try again."})
	}
}
