//go:build !js

package events_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/service/events"
	"github.com/emojisearch/emojisearch/service/store"
	"github.com/emojisearch/emojisearch/service/store/sqlitedb"
)

func TestInsertAndBody(t *testing.T) {
	ctx := context.Background()
	db, err := sqlitedb.Open(ctx, filepath.Join(t.TempDir(), "d1.sqlite"), sqlitedb.RepoMigrations())
	require.NoError(t, err)
	t.Cleanup(func() { _ = db.Close() })
	_, err = db.Batch(ctx, []store.Stmt{
		store.Q("INSERT INTO accounts (id, idp_user_id, created_at) VALUES ('acc_1', 'u1', 1)"),
		store.Q("INSERT INTO apps (id, account_id, name, environment, created_at) VALUES ('app_1', 'acc_1', 'a', 'production', 1)"),
	})
	require.NoError(t, err)

	ev, err := events.New(events.TenantCreated, "app_1", 1700000000000, map[string]any{"externalId": "t1"})
	require.NoError(t, err)
	require.Regexp(t, `^evt_[0-9a-f]{24}$`, ev.ID)
	_, err = db.Batch(ctx, []store.Stmt{ev.Insert()})
	require.NoError(t, err)
	row, err := db.First(ctx, store.Q("SELECT type, data FROM events WHERE id = ?", ev.ID))
	require.NoError(t, err)
	require.JSONEq(t, `"tenant.created"`, string(row["type"]))
	require.JSONEq(t, `"{\"externalId\":\"t1\"}"`, string(row["data"]))

	body, err := ev.Body()
	require.NoError(t, err)
	var got map[string]any
	require.NoError(t, json.Unmarshal(body, &got))
	require.Equal(t, map[string]any{"id": ev.ID, "type": "tenant.created", "createdAt": 1.7e12, "appId": "app_1",
		"data": map[string]any{"externalId": "t1"}}, got)
}
