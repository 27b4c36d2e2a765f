package e2e

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A team over HTTP on both runtimes (spec 2 team and invite rows): an
// owner on Pro invites by email, the invitee accepts once, sees the
// owner's apps, gets another role, and leaves.
func TestTeamInviteFlow(t *testing.T) {
	owner, member := signUp(t), signUp(t)
	require.Equal(t, 200, owner.api(t, "GET", "/api/me", nil).Status)
	require.Equal(t, 200, member.api(t, "GET", "/api/me", nil).Status)

	free := owner.api(t, "POST", "/api/team/invites", map[string]any{"role": "developer"})
	assert.Equal(t, 402, free.Status, "teams need Pro")
	assert.Equal(t, "pro", free.JSON(t)["error"].(map[string]any)["plan"])

	sql(t, "UPDATE accounts SET plan = 'pro' WHERE idp_user_id = ?", owner.sub)
	app := owner.api(t, "POST", "/api/apps", map[string]any{"name": "Team app"})
	require.Equal(t, 201, app.Status, string(app.Body))
	appID := app.JSON(t)["app"].(map[string]any)["id"].(string)

	inv := owner.api(t, "POST", "/api/team/invites", map[string]any{"role": "developer", "email": strings.ToUpper(member.email)})
	require.Equal(t, 201, inv.Status, string(inv.Body))
	link := inv.JSON(t)["url"].(string)
	token := link[strings.LastIndex(link, "/")+1:]
	require.NotEmpty(t, token)

	stranger := signUp(t)
	mismatch := stranger.api(t, "POST", "/api/invites/"+token+"/accept", nil)
	assert.Equal(t, 403, mismatch.Status)
	assert.Equal(t, "invite_email_mismatch", errorCode(t, mismatch))
	own := owner.api(t, "POST", "/api/invites/"+token+"/accept", nil)
	assert.Equal(t, 409, own.Status)
	assert.Equal(t, "invite_own_team", errorCode(t, own))

	ok := member.api(t, "POST", "/api/invites/"+token+"/accept", nil)
	require.Equal(t, 200, ok.Status, string(ok.Body))
	team := ok.JSON(t)["team"].(map[string]any)
	assert.Equal(t, "developer", team["role"])
	again := member.api(t, "POST", "/api/invites/"+token+"/accept", nil)
	assert.Equal(t, 410, again.Status)
	assert.Equal(t, "invite_used", errorCode(t, again))
	assert.Equal(t, 404, member.api(t, "POST", "/api/invites/not-a-token/accept", nil).Status)
	// Secrets in paths are redacted in every log we write (issue 27).
	logs, err := os.ReadFile(tgt.logPath)
	require.NoError(t, err)
	assert.NotContains(t, string(logs), token, "the request log never holds an invite token")
	if tgt.name == "hostsim" {
		assert.Contains(t, string(logs), "POST /api/invites/[redacted]/accept 200", "hostsim logs the request, token redacted")
	}

	apps := member.api(t, "GET", "/api/apps", nil)
	require.Equal(t, 200, apps.Status)
	assert.Contains(t, string(apps.Body), appID, "team apps are listed")
	assert.Equal(t, 200, member.api(t, "GET", "/api/apps/"+appID, nil).Status)
	assert.Equal(t, 403, member.api(t, "GET", "/api/billing?owner="+team["ownerId"].(string), nil).Status, "billing is for owner and admin")

	roster := owner.api(t, "GET", "/api/team", nil)
	require.Equal(t, 200, roster.Status, string(roster.Body))
	var memberID string
	for _, m := range roster.JSON(t)["members"].([]any) {
		if mm := m.(map[string]any); mm["role"] == "developer" {
			memberID = mm["id"].(string)
		}
	}
	require.NotEmpty(t, memberID)
	patched := owner.api(t, "PATCH", "/api/team/members/"+memberID, map[string]any{"role": "viewer"})
	require.Equal(t, 200, patched.Status, string(patched.Body))
	viewer := member.api(t, "PATCH", "/api/apps/"+appID, map[string]any{"name": "renamed"})
	assert.Equal(t, 403, viewer.Status)
	assert.Equal(t, "forbidden_role", errorCode(t, viewer))

	left := member.api(t, "DELETE", "/api/team/members/"+memberID+"?owner="+team["ownerId"].(string), nil)
	require.Equal(t, 200, left.Status, string(left.Body))
	assert.Equal(t, 404, member.api(t, "GET", "/api/apps/"+appID, nil).Status, "no access after leaving")
}
