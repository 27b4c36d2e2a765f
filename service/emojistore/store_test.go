//go:build !js

package emojistore_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/service/emojistore"
	"github.com/emojisearch/emojisearch/service/imageintake"
	"github.com/emojisearch/emojisearch/service/store"
	"github.com/emojisearch/emojisearch/service/store/sqlitedb"
)

var bg = context.Background()

// dirObjects is the image store as files under a directory (what hostsim
// does for R2), with switches that make puts or deletes fail.
type dirObjects struct {
	dir                 string
	mu                  sync.Mutex
	failPut, failDelete bool
	types               map[string]string
}

func (o *dirObjects) Put(_ context.Context, key string, body []byte, ct string, meta map[string]string) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.failPut {
		return errors.New("put failed")
	}
	p := filepath.Join(o.dir, filepath.FromSlash(key))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	o.types[key] = ct + " " + meta["xxhash64"]
	return os.WriteFile(p, body, 0o644)
}

func (o *dirObjects) Delete(_ context.Context, keys []string) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.failDelete {
		return errors.New("delete failed")
	}
	for _, k := range keys {
		if err := os.Remove(filepath.Join(o.dir, filepath.FromSlash(k))); err != nil && !os.IsNotExist(err) {
			return err
		}
	}
	return nil
}

// keys lists the stored objects.
func (o *dirObjects) keys(t *testing.T) []string {
	var out []string
	require.NoError(t, filepath.WalkDir(o.dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(o.dir, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return err
	}))
	return out
}

type env struct {
	db  *sqlitedb.DB
	obj *dirObjects
	s   *emojistore.Store
}

func newEnv(t *testing.T) *env {
	db, err := sqlitedb.Open(bg, filepath.Join(t.TempDir(), "d1.sqlite"), sqlitedb.RepoMigrations())
	require.NoError(t, err)
	t.Cleanup(func() { _ = db.Close() })
	obj := &dirObjects{dir: t.TempDir(), types: map[string]string{}}
	now := time.UnixMilli(1_700_000_000_000)
	_, err = db.Batch(bg, []store.Stmt{
		store.Q("INSERT INTO accounts (id, idp_user_id, plan, created_at) VALUES ('acc_1', 'u1', 'scale', 1), ('acc_2', 'u2', 'scale', 1)"),
		store.Q(`INSERT INTO apps (id, account_id, name, environment, created_at) VALUES
			('app_1', 'acc_1', 'a', 'production', 1), ('app_2', 'acc_1', 'b', 'production', 1), ('app_x', 'acc_2', 'x', 'production', 1)`),
	})
	require.NoError(t, err)
	return &env{db: db, obj: obj, s: emojistore.New(emojistore.NewConfig(db).WithObjects(obj).WithClock(func() time.Time { return now }).WithLog(t.Logf))}
}

func (e *env) count(t *testing.T, sql string, args ...any) int64 {
	row, err := e.db.First(bg, store.Q(sql, args...))
	require.NoError(t, err)
	n, err := row.Int("n")
	require.NoError(t, err)
	return n
}

func newEmoji(t *testing.T, app, tenant, shortcode string, limit int64) emojistore.NewEmoji {
	img, err := imageintake.Check([]byte(svg), "")
	require.NoError(t, err)
	return emojistore.NewEmoji{AppID: app, TenantID: tenant, Shortcode: shortcode, Aliases: []string{"party time"},
		Source: emojistore.SourceUpload, Image: []byte(svg), Checked: img, Limit: limit, Base: "https://api.example"}
}

func TestCreateStoresImageRowAndEvent(t *testing.T) {
	e := newEnv(t)
	em, err := e.s.Create(bg, newEmoji(t, "app_1", "", "party", 10))
	require.NoError(t, err)
	require.Equal(t, "custom/app_1/_/"+em.ID+".svg", em.ImageKey)
	require.Equal(t, []string{em.ImageKey}, e.obj.keys(t))
	require.Equal(t, "image/svg+xml "+imageintake.Hash([]byte(svg)), e.obj.types[em.ImageKey])
	got, err := e.s.Get(bg, "app_1", em.ID)
	require.NoError(t, err)
	require.Equal(t, []string{"party time"}, got.Aliases)
	require.Equal(t, int64(len(svg)), got.Bytes)

	row, err := e.db.First(bg, store.Q("SELECT type, data FROM events"))
	require.NoError(t, err)
	typ, _ := row.String("type")
	data, _ := row.String("data")
	require.Equal(t, "custom_emoji.created", typ)
	var d map[string]any
	require.NoError(t, json.Unmarshal([]byte(data), &d))
	require.Equal(t, "https://api.example/v1/custom/app_1/"+em.ID, d["imageUrl"])
	require.Nil(t, d["tenantExternalId"])
	require.Contains(t, d, "tenantExternalId")

	_, err = e.s.Get(bg, "app_x", em.ID)
	require.ErrorIs(t, err, emojistore.ErrNotFound, "another app's id is not found")
}

func TestShortcodePerScope(t *testing.T) {
	e := newEnv(t)
	ten, created, err := e.s.CreateTenant(bg, "app_1", "cust-1", "Customer")
	require.NoError(t, err)
	require.True(t, created)
	_, err = e.s.Create(bg, newEmoji(t, "app_1", "", "logo", 10))
	require.NoError(t, err)
	_, err = e.s.Create(bg, newEmoji(t, "app_1", "", "logo", 10))
	require.ErrorIs(t, err, emojistore.ErrShortcodeTaken)
	te, err := e.s.Create(bg, newEmoji(t, "app_1", ten.ID, "logo", 10))
	require.NoError(t, err, "the tenant scope is its own")
	require.Equal(t, "custom/app_1/"+ten.ID+"/"+te.ID+".svg", te.ImageKey)
	require.Equal(t, "cust-1", te.TenantExternalID)
	_, err = e.s.Create(bg, newEmoji(t, "app_2", "", "logo", 10))
	require.NoError(t, err, "another app is another scope")
	_, err = e.s.Create(bg, newEmoji(t, "app_2", ten.ID, "x", 10))
	require.ErrorIs(t, err, emojistore.ErrTenantNotFound, "a tenant of another app")
	require.Len(t, e.obj.keys(t), 3)
}

// TestParallelUploadsStopAtTheLimit: 50 parallel uploads against a
// remaining allowance store exactly the allowance, across two apps of the
// account, and leave one object per row.
func TestParallelUploadsStopAtTheLimit(t *testing.T) {
	e := newEnv(t)
	_, err := e.s.Create(bg, newEmoji(t, "app_2", "", "already", 8))
	require.NoError(t, err)
	const limit = 8 // allowance 7 left
	var wg sync.WaitGroup
	errs := make([]error, 50)
	for i := range errs {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			_, errs[i] = e.s.Create(bg, newEmoji(t, "app_1", "", "e"+strings.Repeat("x", i), limit))
		}(i)
	}
	wg.Wait()
	ok, limited := 0, 0
	for _, err := range errs {
		var le *emojistore.LimitError
		switch {
		case err == nil:
			ok++
		case errors.As(err, &le):
			limited++
			require.Equal(t, int64(limit), le.Limit)
		default:
			t.Fatalf("unexpected error: %v", err)
		}
	}
	require.Equal(t, 7, ok)
	require.Equal(t, 43, limited)
	require.Equal(t, int64(8), e.count(t, "SELECT count(*) AS n FROM custom_emoji"))
	require.Len(t, e.obj.keys(t), 8)
	require.Equal(t, int64(8), e.count(t, "SELECT count(*) AS n FROM events WHERE type = 'custom_emoji.created'"))
	used, err := e.s.Used(bg, "acc_1")
	require.NoError(t, err)
	require.Equal(t, int64(8), used)
}

// TestParallelSameShortcode: the insert's UNIQUE decides; the losers'
// images are deleted again.
func TestParallelSameShortcode(t *testing.T) {
	e := newEnv(t)
	var wg sync.WaitGroup
	errs := make([]error, 20)
	for i := range errs {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			_, errs[i] = e.s.Create(bg, newEmoji(t, "app_1", "", "same", -1))
		}(i)
	}
	wg.Wait()
	ok := 0
	for _, err := range errs {
		if err == nil {
			ok++
		} else {
			require.ErrorIs(t, err, emojistore.ErrShortcodeTaken)
		}
	}
	require.Equal(t, 1, ok)
	require.Len(t, e.obj.keys(t), 1)
}

func TestStorageFailures(t *testing.T) {
	e := newEnv(t)
	e.obj.failPut = true
	_, err := e.s.Create(bg, newEmoji(t, "app_1", "", "a", 10))
	require.ErrorIs(t, err, emojistore.ErrStorage)
	require.Zero(t, e.count(t, "SELECT count(*) AS n FROM custom_emoji"))
	e.obj.failPut = false

	em, err := e.s.Create(bg, newEmoji(t, "app_1", "", "a", 10))
	require.NoError(t, err)
	e.obj.failDelete = true
	_, err = e.s.Delete(bg, em, "https://api.example")
	require.ErrorIs(t, err, emojistore.ErrStorage)
	require.Equal(t, int64(1), e.count(t, "SELECT count(*) AS n FROM custom_emoji"), "nothing deleted")
	require.Zero(t, e.count(t, "SELECT count(*) AS n FROM events WHERE type = 'custom_emoji.deleted'"))

	e.obj.failDelete = false
	_, err = e.s.Delete(bg, em, "https://api.example")
	require.NoError(t, err)
	require.Empty(t, e.obj.keys(t))
	require.Equal(t, int64(1), e.count(t, "SELECT count(*) AS n FROM events WHERE type = 'custom_emoji.deleted'"))
	_, err = e.s.Delete(bg, em, "https://api.example")
	require.ErrorIs(t, err, emojistore.ErrNotFound)
	require.Equal(t, int64(1), e.count(t, "SELECT count(*) AS n FROM events WHERE type = 'custom_emoji.deleted'"))

	none := emojistore.New(emojistore.NewConfig(e.db))
	_, err = none.Create(bg, newEmoji(t, "app_1", "", "b", 10))
	require.ErrorIs(t, err, emojistore.ErrStorage, "no image store bound")
}

func TestRenameKeepsIDAndImage(t *testing.T) {
	e := newEnv(t)
	em, err := e.s.Create(bg, newEmoji(t, "app_1", "", "old", 10))
	require.NoError(t, err)
	_, err = e.s.Create(bg, newEmoji(t, "app_1", "", "taken", 10))
	require.NoError(t, err)
	sc, al := "new", []string{"fresh"}
	got, err := e.s.Rename(bg, "app_1", em.ID, emojistore.Patch{Shortcode: &sc, Aliases: &al})
	require.NoError(t, err)
	require.Equal(t, em.ID, got.ID)
	require.Equal(t, em.ImageKey, got.ImageKey)
	require.Equal(t, "new", got.Shortcode)
	require.Equal(t, []string{"fresh"}, got.Aliases)
	taken := "taken"
	_, err = e.s.Rename(bg, "app_1", em.ID, emojistore.Patch{Shortcode: &taken})
	require.ErrorIs(t, err, emojistore.ErrShortcodeTaken)
	_, err = e.s.Rename(bg, "app_x", em.ID, emojistore.Patch{Shortcode: &sc})
	require.ErrorIs(t, err, emojistore.ErrNotFound)
	require.Zero(t, e.count(t, "SELECT count(*) AS n FROM events WHERE type NOT LIKE '%created'"), "renames send no event")
}

func TestTenants(t *testing.T) {
	e := newEnv(t)
	a, created, err := e.s.CreateTenant(bg, "app_1", "b-cust", "B")
	require.NoError(t, err)
	require.True(t, created)
	again, created, err := e.s.CreateTenant(bg, "app_1", "b-cust", "Renamed?")
	require.NoError(t, err)
	require.False(t, created)
	require.Equal(t, a.ID, again.ID)
	require.Equal(t, "B", again.Name, "the name is not changed")
	for _, ext := range []string{"c-cust", "a-cust"} {
		_, _, err := e.s.CreateTenant(bg, "app_1", ext, "")
		require.NoError(t, err)
	}
	_, _, err = e.s.CreateTenant(bg, "app_2", "z-other-app", "")
	require.NoError(t, err)
	require.Equal(t, int64(4), e.count(t, "SELECT count(*) AS n FROM events WHERE type = 'tenant.created'"))

	page, more, err := e.s.ListTenants(bg, "app_1", "", 2)
	require.NoError(t, err)
	require.True(t, more)
	require.Equal(t, []string{"a-cust", "b-cust"}, []string{page[0].ExternalID, page[1].ExternalID})
	page, more, err = e.s.ListTenants(bg, "app_1", "b-cust", 2)
	require.NoError(t, err)
	require.False(t, more)
	require.Len(t, page, 1)

	for _, sc := range []string{"one", "two"} {
		_, err := e.s.Create(bg, newEmoji(t, "app_1", a.ID, sc, -1))
		require.NoError(t, err)
	}
	_, err = e.s.Create(bg, newEmoji(t, "app_1", "", "wide", -1))
	require.NoError(t, err)
	a, err = e.s.Tenant(bg, "app_1", a.ID)
	require.NoError(t, err)
	require.Equal(t, int64(2), a.EmojiCount)

	e.obj.failDelete = true
	_, err = e.s.DeleteTenant(bg, a)
	require.ErrorIs(t, err, emojistore.ErrStorage)
	require.Equal(t, int64(3), e.count(t, "SELECT count(*) AS n FROM custom_emoji"))
	e.obj.failDelete = false

	n, err := e.s.DeleteTenant(bg, a)
	require.NoError(t, err)
	require.Equal(t, int64(2), n)
	require.Len(t, e.obj.keys(t), 1)
	row, err := e.db.First(bg, store.Q("SELECT data FROM events WHERE type = 'tenant.deleted'"))
	require.NoError(t, err)
	data, _ := row.String("data")
	require.JSONEq(t, `{"id":"`+a.ID+`","externalId":"b-cust","name":"B","createdAt":1700000000000,"emojiDeleted":2}`, data)
	_, err = e.s.DeleteTenant(bg, a)
	require.ErrorIs(t, err, emojistore.ErrTenantNotFound)
	_, err = e.s.TenantByExternalID(bg, "app_2", "a-cust")
	require.ErrorIs(t, err, emojistore.ErrTenantNotFound, "tenants are per app")
}

// TestChangedHook: the hook hears every committed change, never a refused
// one.
func TestChangedHook(t *testing.T) {
	e := newEnv(t)
	var heard []string
	s := emojistore.New(emojistore.NewConfig(e.db).WithObjects(e.obj).WithLog(t.Logf).WithChanged(func(app string) { heard = append(heard, app) }))
	ten, _, err := s.CreateTenant(bg, "app_1", "t", "")
	require.NoError(t, err)
	em, err := s.Create(bg, newEmoji(t, "app_1", ten.ID, "a", 10))
	require.NoError(t, err)
	_, err = s.Create(bg, newEmoji(t, "app_1", ten.ID, "a", 10))
	require.ErrorIs(t, err, emojistore.ErrShortcodeTaken)
	sc := "b"
	_, err = s.Rename(bg, "app_1", em.ID, emojistore.Patch{Shortcode: &sc})
	require.NoError(t, err)
	_, err = s.Delete(bg, em, "https://api.example")
	require.NoError(t, err)
	_, err = s.DeleteTenant(bg, ten)
	require.NoError(t, err)
	require.Equal(t, []string{"app_1", "app_1", "app_1", "app_1"}, heard)
}
