package e2e

import (
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func unique(prefix string) string { return fmt.Sprintf("%s%d", prefix, time.Now().UnixNano()) }

func TestD1(t *testing.T) {
	table := unique("notes_")
	exec := postJSON(t, "/__diag/d1/exec", map[string]string{"sql": "CREATE TABLE " + table + " (id INTEGER PRIMARY KEY, body TEXT NOT NULL, score REAL, data BLOB)"})
	require.Equal(t, 200, exec.Status, string(exec.Body))
	assert.Equal(t, 1.0, exec.JSON(t)["result"].(map[string]any)["count"])

	ins := postJSON(t, "/__diag/d1/run", map[string]any{"sql": "INSERT INTO " + table + " (body, score) VALUES (?, ?)", "params": []any{"hello", 1.5}})
	require.Equal(t, 200, ins.Status, string(ins.Body))
	res := ins.JSON(t)["result"].(map[string]any)
	assert.Equal(t, true, res["success"])
	meta := res["meta"].(map[string]any)
	assert.Equal(t, 1.0, meta["changes"])
	assert.Equal(t, 1.0, meta["last_row_id"])
	assert.Equal(t, true, meta["changed_db"])
	for _, k := range []string{"duration", "size_after", "rows_read", "rows_written"} {
		assert.Contains(t, meta, k)
	}

	all := postJSON(t, "/__diag/d1/all", map[string]any{"sql": "SELECT id, body, score FROM " + table + " WHERE body = ?", "params": []any{"hello"}})
	rows := all.JSON(t)["result"].(map[string]any)["results"].([]any)
	require.Len(t, rows, 1)
	assert.Equal(t, map[string]any{"id": 1.0, "body": "hello", "score": 1.5}, rows[0])

	first := postJSON(t, "/__diag/d1/first", map[string]any{"sql": "SELECT body FROM " + table + " WHERE id = ?", "params": []any{1}})
	assert.Equal(t, map[string]any{"body": "hello"}, first.JSON(t)["result"])
	none := postJSON(t, "/__diag/d1/first", map[string]any{"sql": "SELECT body FROM " + table + " WHERE id = ?", "params": []any{99}})
	assert.Nil(t, none.JSON(t)["result"])

	raw := postJSON(t, "/__diag/d1/raw", map[string]any{"sql": "SELECT id, body FROM " + table})
	assert.Equal(t, []any{[]any{"id", "body"}, []any{1.0, "hello"}}, raw.JSON(t)["result"])

	// A batch is atomic: the failing second statement undoes the first.
	bad := postJSON(t, "/__diag/d1/batch", []map[string]any{
		{"sql": "INSERT INTO " + table + " (body) VALUES (?)", "params": []any{"kept?"}},
		{"sql": "INSERT INTO " + table + " (body) VALUES (NULL)"},
	})
	assert.Equal(t, 400, bad.Status)
	count := postJSON(t, "/__diag/d1/first", map[string]any{"sql": "SELECT COUNT(*) AS n FROM " + table})
	assert.Equal(t, map[string]any{"n": 1.0}, count.JSON(t)["result"])

	good := postJSON(t, "/__diag/d1/batch", []map[string]any{
		{"sql": "INSERT INTO " + table + " (body) VALUES (?)", "params": []any{"two"}},
		{"sql": "SELECT COUNT(*) AS n FROM " + table},
	})
	require.Equal(t, 200, good.Status, string(good.Body))
	results := good.JSON(t)["result"].([]any)
	require.Len(t, results, 2)
	assert.Equal(t, []any{map[string]any{"n": 2.0}}, results[1].(map[string]any)["results"])

	begin := postJSON(t, "/__diag/d1/exec", map[string]string{"sql": "BEGIN TRANSACTION"})
	assert.Equal(t, 400, begin.Status, "D1 refuses explicit transactions")

	syntax := postJSON(t, "/__diag/d1/all", map[string]any{"sql": "SELEC nonsense"})
	assert.Equal(t, 400, syntax.Status)
	assert.Contains(t, syntax.JSON(t)["error"], "D1_ERROR")
}

func TestD1MigrationsApplied(t *testing.T) {
	r := postJSON(t, "/__diag/d1/all", map[string]any{"sql": "SELECT name FROM d1_migrations ORDER BY id"})
	require.Equal(t, 200, r.Status, string(r.Body))
	rows := r.JSON(t)["result"].(map[string]any)["results"].([]any)
	require.NotEmpty(t, rows)
	assert.Equal(t, "0001_platform.sql", rows[0].(map[string]any)["name"])
}

func TestCronReachesTheWorker(t *testing.T) {
	cron := "*/7 * * * *"
	r := get(t, "/__scheduled?cron="+strings.ReplaceAll(cron, " ", "+"))
	require.Equal(t, 200, r.Status, string(r.Body))
	rows := postJSON(t, "/__diag/d1/all", map[string]any{"sql": "SELECT cron, ok, detail FROM cron_runs WHERE cron = ?", "params": []any{cron}})
	require.Equal(t, 200, rows.Status, string(rows.Body))
	list := rows.JSON(t)["result"].(map[string]any)["results"].([]any)
	require.NotEmpty(t, list, "the scheduled handler recorded its run")
	assert.Equal(t, map[string]any{"cron": cron, "ok": 1.0, "detail": "no job"}, list[len(list)-1])
}

func TestR2(t *testing.T) {
	prefix := unique("r2/")
	body := "custom emoji bytes"
	put := call(t, "PUT", "/__diag/r2/"+prefix+"/a.png", []byte(body), "Content-Type", "image/png", "X-Meta", `{"app":"a1"}`)
	require.Equal(t, 200, put.Status, string(put.Body))
	obj := put.JSON(t)["object"].(map[string]any)
	sum := md5.Sum([]byte(body))
	assert.Equal(t, hex.EncodeToString(sum[:]), obj["etag"])
	assert.Equal(t, `"`+hex.EncodeToString(sum[:])+`"`, obj["httpEtag"])
	assert.Equal(t, float64(len(body)), obj["size"])

	got := get(t, "/__diag/r2/"+prefix+"/a.png").JSON(t)
	assert.Equal(t, true, got["found"])
	assert.Equal(t, body, got["body"])
	gobj := got["object"].(map[string]any)
	assert.Equal(t, "image/png", gobj["httpMetadata"].(map[string]any)["contentType"])
	assert.Equal(t, map[string]any{"app": "a1"}, gobj["customMetadata"])
	uploaded, err := time.Parse(time.RFC3339Nano, gobj["uploaded"].(string))
	require.NoError(t, err)
	assert.WithinDuration(t, time.Now(), uploaded, time.Minute)

	part := get(t, "/__diag/r2/"+prefix+"/a.png?offset=7&length=5").JSON(t)
	assert.Equal(t, "emoji", part["body"])
	suffix := get(t, "/__diag/r2/"+prefix+"/a.png?suffix=5").JSON(t)
	assert.Equal(t, "bytes", suffix["body"])

	head := get(t, "/__diag/r2/"+prefix+"/a.png?head=1").JSON(t)
	assert.Equal(t, true, head["found"])
	assert.Equal(t, "", head["body"])

	refused := call(t, "PUT", "/__diag/r2/"+prefix+"/a.png", []byte("other"), "If-Match", "not-the-etag")
	require.Equal(t, 200, refused.Status, string(refused.Body))
	assert.Nil(t, refused.JSON(t)["object"], "a failed onlyIf writes nothing")
	assert.Equal(t, body, get(t, "/__diag/r2/"+prefix+"/a.png").JSON(t)["body"])

	for _, k := range []string{"b.png", "dir/c.png", "dir/d.png"} {
		require.Equal(t, 200, call(t, "PUT", "/__diag/r2/"+prefix+"/"+k, []byte(k)).Status)
	}
	page := get(t, "/__diag/r2-list?prefix="+prefix+"/&limit=2").JSON(t)
	assert.Len(t, page["objects"], 2)
	assert.Equal(t, true, page["truncated"])
	rest := get(t, "/__diag/r2-list?prefix="+prefix+"/&cursor="+page["cursor"].(string)).JSON(t)
	assert.Len(t, rest["objects"], 2)
	assert.Equal(t, false, rest["truncated"])

	delim := get(t, "/__diag/r2-list?prefix="+prefix+"/&delimiter=/").JSON(t)
	assert.Equal(t, []any{prefix + "/dir/"}, delim["delimitedPrefixes"])
	assert.Len(t, delim["objects"], 2)

	withMeta := get(t, "/__diag/r2-list?prefix="+prefix+"/a&include=1").JSON(t)
	assert.Equal(t, map[string]any{"app": "a1"}, withMeta["objects"].([]any)[0].(map[string]any)["customMetadata"])

	require.Equal(t, 200, call(t, "DELETE", "/__diag/r2/"+prefix+"/a.png", nil).Status)
	assert.Equal(t, false, get(t, "/__diag/r2/"+prefix+"/a.png").JSON(t)["found"])
}

func TestCacheAPI(t *testing.T) {
	base := "https://cache.example.com/" + unique("c")
	cases := []struct {
		name    string
		headers map[string]string
		stored  bool
	}{
		{"max-age", map[string]string{"Cache-Control": "public, max-age=3600"}, true},
		{"s-maxage wins over max-age=0", map[string]string{"Cache-Control": "max-age=0, s-maxage=600"}, true},
		{"no-store", map[string]string{"Cache-Control": "no-store"}, false},
		{"private", map[string]string{"Cache-Control": "private, max-age=60"}, false},
		{"no-cache", map[string]string{"Cache-Control": "no-cache"}, false},
		{"max-age=0", map[string]string{"Cache-Control": "max-age=0"}, false},
		{"set-cookie", map[string]string{"Cache-Control": "public, max-age=3600", "Set-Cookie": "a=b"}, false},
		{"expires in the future", map[string]string{"Expires": time.Now().Add(time.Hour).UTC().Format("Mon, 02 Jan 2006 15:04:05 GMT")}, true},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			u := fmt.Sprintf("%s/%d", base, i)
			headers := map[string]string{"Content-Type": "application/json"}
			for k, v := range tc.headers {
				headers[k] = v
			}
			put := postJSON(t, "/__diag/cache/put", map[string]any{"url": u, "status": 200, "headers": headers, "body": `{"n":1}`})
			require.Equal(t, 200, put.Status, string(put.Body))
			m := get(t, "/__diag/cache/match?url="+u).JSON(t)
			assert.Equal(t, tc.stored, m["found"])
			if tc.stored {
				assert.Equal(t, `{"n":1}`, m["body"])
				assert.Equal(t, "HIT", m["headers"].(map[string]any)["Cf-Cache-Status"])
			}
		})
	}

	u := base + "/etag"
	postJSON(t, "/__diag/cache/put", map[string]any{"url": u, "status": 200, "headers": map[string]string{"Cache-Control": "max-age=600", "ETag": `"v1"`}, "body": "0123456789"})
	notModified := get(t, "/__diag/cache/match?url="+u+"&If-None-Match=%22v1%22").JSON(t)
	assert.Equal(t, 304.0, notModified["status"])
	partial := get(t, "/__diag/cache/match?url="+u+"&Range=bytes%3D2-4").JSON(t)
	assert.Equal(t, 206.0, partial["status"])
	assert.Equal(t, "234", partial["body"])

	refused := postJSON(t, "/__diag/cache/put", map[string]any{"url": base + "/partial", "status": 206, "headers": map[string]string{"Cache-Control": "max-age=60"}, "body": "x"})
	assert.Equal(t, 400, refused.Status, "a 206 cannot be put")

	del := postJSON(t, "/__diag/cache/delete?url="+u, nil)
	assert.Equal(t, true, del.JSON(t)["deleted"])
	assert.Equal(t, false, get(t, "/__diag/cache/match?url="+u).JSON(t)["found"])
}

func TestRateLimitBinding(t *testing.T) {
	// The limiter counts in fixed 60 s windows: a burst that straddles a
	// window boundary is counted in two, so one fresh attempt is allowed.
	var key string
	allowed := 0
	for attempt := 0; attempt < 2 && allowed != 30; attempt++ {
		key, allowed = unique("ip-"), 0
		for i := 0; i < 35; i++ {
			r := postJSON(t, "/__diag/ratelimit/RL_ANON?key="+key, nil)
			require.Equal(t, 200, r.Status, string(r.Body))
			if r.JSON(t)["success"] == true {
				allowed++
			}
		}
	}
	assert.Equal(t, 30, allowed, "RL_ANON allows 30 per minute per key")
	other := postJSON(t, "/__diag/ratelimit/RL_ANON?key="+key+"-other", nil)
	assert.Equal(t, true, other.JSON(t)["success"], "keys are counted apart")
}

func TestNightlyJobPrunesTheWaitlist(t *testing.T) {
	old, fresh := unique("old")+"@example.com", unique("new")+"@example.com"
	yearAgo := time.Now().AddDate(-1, 0, -2).UnixMilli()
	for _, row := range []struct {
		email string
		at    int64
	}{{old, yearAgo}, {fresh, time.Now().UnixMilli()}} {
		r := postJSON(t, "/__diag/d1/run", map[string]any{
			"sql":    "INSERT INTO waitlist (email, plan, source, created_at, updated_at) VALUES (?, 'pro', 'website', ?, ?)",
			"params": []any{row.email, row.at, row.at}})
		require.Equal(t, 200, r.Status, string(r.Body))
	}
	cron := "17 3 * * *"
	require.Equal(t, 200, get(t, "/__scheduled?cron="+strings.ReplaceAll(cron, " ", "+")).Status)
	rows := postJSON(t, "/__diag/d1/all", map[string]any{"sql": "SELECT email FROM waitlist WHERE email IN (?, ?)", "params": []any{old, fresh}})
	require.Equal(t, 200, rows.Status, string(rows.Body))
	assert.Equal(t, []any{map[string]any{"email": fresh}}, rows.JSON(t)["result"].(map[string]any)["results"], "entries over 12 months old are dropped")
	runs := postJSON(t, "/__diag/d1/all", map[string]any{"sql": "SELECT ok, detail FROM cron_runs WHERE cron = ? ORDER BY id DESC LIMIT 1", "params": []any{cron}})
	assert.Equal(t, []any{map[string]any{"ok": 1.0, "detail": ""}}, runs.JSON(t)["result"].(map[string]any)["results"])
}
