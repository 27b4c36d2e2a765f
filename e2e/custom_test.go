package e2e

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"image"
	"image/color"
	"image/gif"
	"image/png"
	"mime/multipart"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/service/imageintake/imagebombs"
)

// Images of the four accepted types, made by encoders (PNG, GIF) or taken
// from the WebP container's smallest lossless file.
func e2eImages(t *testing.T) map[string][]byte {
	var p, g bytes.Buffer
	img := image.NewPaletted(image.Rect(0, 0, 4, 4), color.Palette{color.Black, color.White})
	img.SetColorIndex(1, 1, 1)
	require.NoError(t, png.Encode(&p, img))
	require.NoError(t, gif.Encode(&g, img, nil))
	webp, err := base64.StdEncoding.DecodeString("UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==")
	require.NoError(t, err)
	return map[string][]byte{
		"png": p.Bytes(), "gif": g.Bytes(), "webp": webp,
		"svg": []byte(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 8"><circle cx="4" cy="4" r="3" fill="#f0a"/></svg>`),
	}
}

// multipartBody builds an upload form: file, then text fields (name,
// value pairs).
func multipartBody(t *testing.T, file []byte, fields ...string) ([]byte, string) {
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	fw, err := mw.CreateFormFile("file", "emoji.bin")
	require.NoError(t, err)
	_, _ = fw.Write(file)
	for i := 0; i+1 < len(fields); i += 2 {
		require.NoError(t, mw.WriteField(fields[i], fields[i+1]))
	}
	require.NoError(t, mw.Close())
	return b.Bytes(), mw.FormDataContentType()
}

// scaleApp signs a user up, moves the account to plan through the
// development route, and creates an app with a publishable key for origin
// and a secret key.
func scaleApp(t *testing.T, plan, origin string) (u user, appID, pk, sk string) {
	t.Helper()
	u = signUp(t)
	require.Equal(t, 200, u.api(t, "GET", "/api/me", nil).Status)
	r := u.api(t, "POST", "/api/auth/dev/plan", map[string]any{"plan": plan})
	require.Equal(t, 200, r.Status, string(r.Body))
	appID, _, pk = newAppWithKey(t, u, origin)
	k := u.api(t, "POST", "/api/apps/"+appID+"/keys", map[string]any{"kind": "secret"})
	require.Equal(t, 201, k.Status, string(k.Body))
	return u, appID, pk, k.JSON(t)["fullKey"].(string)
}

// r2Keys lists the image store's objects under prefix (diag route).
func r2Keys(t *testing.T, prefix string) []string {
	t.Helper()
	r := get(t, "/__diag/r2-list?limit=1000&prefix="+url.QueryEscape(prefix))
	require.Equal(t, 200, r.Status, string(r.Body))
	var out []string
	objs, _ := r.JSON(t)["objects"].([]any) // null when there are none
	for _, o := range objs {
		out = append(out, o.(map[string]any)["key"].(string))
	}
	return out
}

// The custom emoji journey of issue 10 on both runtimes: an app on Scale,
// a tenant through the tenants API, uploads of every type, search showing
// the tenant's emoji first with imageUrl, the image with its headers, the
// custom pack, a rename, a delete gone from search within a minute and
// 404 on the image.
func TestCustomEmojiJourney(t *testing.T) {
	t.Parallel() // waits up to a minute for the per-instance copy
	const origin = "https://app.custom-journey.test"
	u, appID, pk, sk := scaleApp(t, "scale", origin)
	bearer := []string{"Authorization", "Bearer " + sk}
	tenants := func(method, path string, body []byte, ct string) reply {
		h := append([]string{}, bearer...)
		if ct != "" {
			h = append(h, "Content-Type", ct)
		}
		return call(t, method, "/v1/tenants"+path, body, h...)
	}

	r := tenants("POST", "", []byte(`{"externalId":"acme","name":"Acme"}`), "application/json")
	require.Equal(t, 201, r.Status, string(r.Body))
	tenantID := r.JSON(t)["id"].(string)
	r = tenants("POST", "", []byte(`{"externalId":"acme","name":"Other"}`), "application/json")
	require.Equal(t, 200, r.Status)
	assert.Equal(t, "Acme", r.JSON(t)["name"])
	r = call(t, "GET", "/v1/tenants", nil, "Authorization", "Bearer "+sk, "Origin", origin)
	assert.Equal(t, 403, r.Status, "a request with an Origin header is refused")
	r = get(t, "/v1/tenants?key="+url.QueryEscape(pk), "Origin", origin)
	assert.Equal(t, 403, r.Status)
	assert.Equal(t, "secret_key_required", r.JSON(t)["error"])

	ids := map[string]string{}
	for ext, file := range e2eImages(t) {
		body, ct := multipartBody(t, file, "shortcode", "zq_"+ext, "aliases", "zebra quokka "+ext)
		r := tenants("POST", "/acme/emoji", body, ct)
		require.Equal(t, 201, r.Status, "%s: %s", ext, r.Body)
		em := r.JSON(t)
		assert.Equal(t, "acme", em["tenantExternalId"])
		assert.Equal(t, "api", em["source"])
		ids[ext] = em["id"].(string)
	}
	// An app-wide emoji through the dashboard.
	body, ct := multipartBody(t, e2eImages(t)["png"], "shortcode", "zq_wide")
	r = call(t, "POST", "/api/apps/"+appID+"/emoji", body, "Authorization", "Bearer "+u.token, "Content-Type", ct)
	require.Equal(t, 201, r.Status, string(r.Body))
	wideID := r.JSON(t)["id"].(string)
	unsafe, ct := multipartBody(t, []byte(`<svg xmlns="http://www.w3.org/2000/svg"><a href="javascript:alert(1)"><circle r="3"/></a></svg>`), "shortcode", "bad")
	r = tenants("POST", "/acme/emoji", unsafe, ct)
	assert.Equal(t, 400, r.Status)
	assert.Equal(t, "unsafe_svg", r.JSON(t)["error"])

	keys := r2Keys(t, "custom/"+appID+"/")
	assert.Len(t, keys, 5, "one object per stored emoji")
	assert.Contains(t, keys, "custom/"+appID+"/"+tenantID+"/"+ids["webp"]+".webp")
	assert.Contains(t, keys, "custom/"+appID+"/_/"+wideID+".png")

	search := func(q string) []map[string]any {
		r := get(t, "/v1/search?key="+url.QueryEscape(pk)+"&"+q, "Origin", origin)
		require.Equal(t, 200, r.Status, string(r.Body))
		return results(t, r.JSON(t))
	}
	first := search("q=zq_svg&tenant=acme&limit=5")[0]
	assert.Equal(t, "custom", first["source"])
	assert.Equal(t, ":zq_svg:", first["emoji"])
	assert.Equal(t, "C-"+ids["svg"], first["id"])
	imageURL := first["imageUrl"].(string)
	assert.True(t, strings.HasSuffix(imageURL, "/v1/custom/"+appID+"/"+ids["svg"]), imageURL)
	for _, res := range search("q=zq_svg&limit=5") {
		assert.NotEqual(t, "C-"+ids["svg"], res["id"], "a tenant's emoji only for that tenant")
	}

	img := get(t, "/v1/custom/"+appID+"/"+ids["svg"])
	require.Equal(t, 200, img.Status)
	assert.Equal(t, "image/svg+xml", img.Header.Get("Content-Type"))
	assert.Equal(t, "public, max-age=31536000, immutable", img.Header.Get("Cache-Control"))
	assert.Equal(t, "cross-origin", img.Header.Get("Cross-Origin-Resource-Policy"))
	assert.Equal(t, "nosniff", img.Header.Get("X-Content-Type-Options"))
	assert.Equal(t, "*", img.Header.Get("Access-Control-Allow-Origin"))
	assert.Contains(t, img.Header.Get("Content-Security-Policy"), "sandbox")
	assert.Equal(t, e2eImages(t)["svg"], img.Body)
	etag := img.Header.Get("ETag")
	require.NotEmpty(t, etag)
	assert.Equal(t, 304, get(t, "/v1/custom/"+appID+"/"+ids["svg"], "If-None-Match", etag).Status)
	webp := get(t, "/v1/custom/"+appID+"/"+ids["webp"])
	assert.Equal(t, "image/webp", webp.Header.Get("Content-Type"))

	pack := get(t, "/v1/custom-pack?tenant=acme&key="+url.QueryEscape(pk), "Origin", origin)
	require.Equal(t, 200, pack.Status, string(pack.Body))
	assert.Equal(t, "public, max-age=60", pack.Header.Get("Cache-Control"))
	p := pack.JSON(t)
	assert.Equal(t, "custom", p["part"])
	assert.Len(t, p["rows"], 5)
	assert.Equal(t, 401, get(t, "/v1/custom-pack").Status)

	// Rename (dashboard): id and image kept, search finds the new name.
	r = u.api(t, "PATCH", "/api/apps/"+appID+"/emoji/"+wideID, map[string]any{"shortcode": "zq_renamed"})
	require.Equal(t, 200, r.Status, string(r.Body))
	assert.Equal(t, wideID, r.JSON(t)["id"])
	// Delete (tenants API): the image is gone at once, search within a minute.
	r = tenants("DELETE", "/acme/emoji/zq_svg", nil, "")
	require.Equal(t, 200, r.Status, string(r.Body))
	assert.Equal(t, 404, get(t, "/v1/custom/"+appID+"/"+ids["svg"]).Status)
	start := time.Now()
	eventually(t, 70*time.Second, func() bool {
		hits := search("q=zq_renamed&tenant=acme&limit=5")
		gone := search("q=zq_svg&tenant=acme&limit=5")
		return len(hits) > 0 && hits[0]["id"] == "C-"+wideID && (len(gone) == 0 || gone[0]["id"] != "C-"+ids["svg"])
	}, "the rename or the delete did not reach search within a minute")
	t.Logf("rename and delete visible in search after %v", time.Since(start).Round(time.Second))

	r = tenants("DELETE", "/acme", nil, "")
	require.Equal(t, 200, r.Status, string(r.Body))
	assert.EqualValues(t, 3, r.JSON(t)["emojiDeleted"])
	assert.Equal(t, []string{"custom/" + appID + "/_/" + wideID + ".png"}, r2Keys(t, "custom/"+appID+"/"))
	assert.Equal(t, float64(5+1), countRows(t, "SELECT count(*) AS n FROM events WHERE app_id = ? AND type LIKE 'custom_emoji.%'", appID),
		"5 created and 1 deleted events; the tenant's emoji go with tenant.deleted")
	assert.Equal(t, float64(2), countRows(t, "SELECT count(*) AS n FROM events WHERE app_id = ? AND type LIKE 'tenant.%'", appID))

	// Account deletion removes the remaining image, the rows and the events.
	r = u.api(t, "POST", "/v1/tenants", nil) // a dashboard session token is no API key
	assert.Equal(t, 401, r.Status)
	_, _, err := tenantsAgain(t, sk)
	require.NoError(t, err)
	del := u.api(t, "DELETE", "/api/me", map[string]any{"confirm": u.email})
	require.Equal(t, 200, del.Status, string(del.Body))
	assert.Empty(t, r2Keys(t, "custom/"+appID+"/"))
	for _, table := range []string{"custom_emoji", "tenants", "events"} {
		assert.Zero(t, countRows(t, "SELECT count(*) AS n FROM "+table+" WHERE app_id = ?", appID), table)
	}
}

// tenantsAgain creates a tenant with an emoji, so account deletion has a
// tenant's image to remove too.
func tenantsAgain(t *testing.T, sk string) (string, string, error) {
	r := call(t, "POST", "/v1/tenants", []byte(`{"externalId":"again"}`), "Authorization", "Bearer "+sk, "Content-Type", "application/json")
	if r.Status != 201 {
		return "", "", fmt.Errorf("tenant: %d %s", r.Status, r.Body)
	}
	body, ct := multipartBody(t, e2eImages(t)["gif"], "shortcode", "again")
	r = call(t, "POST", "/v1/tenants/again/emoji", body, "Authorization", "Bearer "+sk, "Content-Type", ct)
	if r.Status != 201 {
		return "", "", fmt.Errorf("emoji: %d %s", r.Status, r.Body)
	}
	return "again", r.JSON(t)["id"].(string), nil
}

// Plan gates over HTTP: no uploads on Free, no tenants below Scale.
func TestCustomEmojiPlanGates(t *testing.T) {
	const origin = "https://app.custom-gates.test"
	u, appID, _, sk := scaleApp(t, "free", origin)
	body, ct := multipartBody(t, e2eImages(t)["png"], "shortcode", "nope")
	r := call(t, "POST", "/api/apps/"+appID+"/emoji", body, "Authorization", "Bearer "+u.token, "Content-Type", ct)
	assert.Equal(t, 402, r.Status)
	assert.Equal(t, "solo", r.JSON(t)["error"].(map[string]any)["plan"])
	r = u.api(t, "POST", "/api/apps/"+appID+"/tenants", map[string]any{"externalId": "x"})
	assert.Equal(t, 402, r.Status)
	assert.Equal(t, "scale", r.JSON(t)["error"].(map[string]any)["plan"])
	r = call(t, "GET", "/v1/tenants", nil, "Authorization", "Bearer "+sk)
	assert.Equal(t, 402, r.Status)
	assert.Equal(t, "plan_required", r.JSON(t)["error"])
}

// 50 parallel uploads against a remaining allowance of 5 store exactly 5
// emoji, and the image store holds exactly one object per stored row.
func TestCustomEmojiParallelLimit(t *testing.T) {
	const origin = "https://app.custom-limit.test"
	u, appID, _, _ := scaleApp(t, "solo", origin) // limit 100
	other := u.api(t, "POST", "/api/apps", map[string]any{"name": "Other", "environment": "production"})
	require.Equal(t, 201, other.Status)
	otherID := other.JSON(t)["app"].(map[string]any)["id"].(string)
	sql(t, `WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 95)
		INSERT INTO custom_emoji (id, app_id, scope, shortcode, image_key, content_type, source, bytes, created_at)
		SELECT 'emo_f' || i || ?, ?, '', 'f' || i, 'custom/none/' || i, 'image/png', 'upload', 1, 1 FROM c`, otherID, otherID)

	png := e2eImages(t)["png"]
	var wg sync.WaitGroup
	var mu sync.Mutex
	statuses := map[int]int{}
	for i := 0; i < 50; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			body, ct := multipartBody(t, png, "shortcode", fmt.Sprintf("p%d", i))
			r := call(t, "POST", "/api/apps/"+appID+"/emoji", body, "Authorization", "Bearer "+u.token, "Content-Type", ct)
			mu.Lock()
			statuses[r.Status]++
			mu.Unlock()
		}(i)
	}
	wg.Wait()
	assert.Equal(t, map[int]int{201: 5, 402: 45}, statuses)
	assert.Equal(t, float64(5), countRows(t, "SELECT count(*) AS n FROM custom_emoji WHERE app_id = ?", appID))
	assert.Len(t, r2Keys(t, "custom/"+appID+"/"), 5, "no orphans after refused uploads")
	list := u.api(t, "GET", "/api/apps/"+appID+"/emoji", nil)
	assert.EqualValues(t, 100, list.JSON(t)["used"])
	assert.EqualValues(t, 100, list.JSON(t)["limit"])
}

// The intake's corpus over HTTP: every attack file refused with unsafe_svg
// and nothing stored; every legitimate export stored and served unchanged.
func TestCustomEmojiSVGCorpus(t *testing.T) {
	const origin = "https://app.custom-corpus.test"
	u, appID, _, _ := scaleApp(t, "scale", origin)
	upload := func(file []byte, shortcode string) reply {
		body, ct := multipartBody(t, file, "shortcode", shortcode)
		return call(t, "POST", "/api/apps/"+appID+"/emoji", body, "Authorization", "Bearer "+u.token, "Content-Type", ct)
	}
	attacks, err := filepath.Glob(filepath.Join(repoRoot(), "service", "imageintake", "testdata", "svg", "attack", "*.svg"))
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(attacks), 40)
	for i, f := range attacks {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		r := upload(b, fmt.Sprintf("attack%d", i))
		assert.Equal(t, 400, r.Status, filepath.Base(f))
		assert.Equal(t, "unsafe_svg", errorCode(t, r), filepath.Base(f))
	}
	assert.Empty(t, r2Keys(t, "custom/"+appID+"/"))
	legit, err := filepath.Glob(filepath.Join(repoRoot(), "service", "imageintake", "testdata", "svg", "legit", "*.svg"))
	require.NoError(t, err)
	for i, f := range legit {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		r := upload(b, fmt.Sprintf("legit%d", i))
		require.Equal(t, 201, r.Status, "%s: %s", filepath.Base(f), r.Body)
		img := get(t, "/v1/custom/"+appID+"/"+r.JSON(t)["id"].(string))
		assert.Equal(t, b, img.Body, "served unchanged: %s", filepath.Base(f))
		assert.Equal(t, "image/svg+xml", img.Header.Get("Content-Type"))
	}
	assert.Len(t, r2Keys(t, "custom/"+appID+"/"), len(legit))
}

// The bomb corpus (service/imageintake/imagebombs: decompression bombs,
// lying headers, truncated files, animations over the frame budget) is
// refused on both upload paths, the dashboard and the tenants API, with
// the intake's codes, and nothing is stored; ordinary emoji of every kind
// are stored on both (issue 31).
func TestCustomEmojiBombCorpus(t *testing.T) {
	const origin = "https://app.custom-bombs.test"
	u, appID, _, sk := scaleApp(t, "scale", origin)
	r := call(t, "POST", "/v1/tenants", []byte(`{"externalId":"bombs"}`), "Authorization", "Bearer "+sk, "Content-Type", "application/json")
	require.Equal(t, 201, r.Status, string(r.Body))
	paths := map[string]func(file []byte, shortcode string) (int, string){
		"dashboard": func(file []byte, shortcode string) (int, string) {
			body, ct := multipartBody(t, file, "shortcode", shortcode)
			r := call(t, "POST", "/api/apps/"+appID+"/emoji", body, "Authorization", "Bearer "+u.token, "Content-Type", ct)
			if r.Status >= 400 {
				return r.Status, errorCode(t, r)
			}
			return r.Status, ""
		},
		"tenants": func(file []byte, shortcode string) (int, string) {
			body, ct := multipartBody(t, file, "shortcode", shortcode)
			r := call(t, "POST", "/v1/tenants/bombs/emoji", body, "Authorization", "Bearer "+sk, "Content-Type", ct)
			code, _ := r.JSON(t)["error"].(string)
			return r.Status, code
		},
	}
	for name, upload := range paths {
		for i, b := range imagebombs.Corpus() {
			status, code := upload(b.Bytes, fmt.Sprintf("bomb%d", i))
			assert.Equal(t, 400, status, "%s: %s", name, b.Name)
			assert.Equal(t, b.Code, code, "%s: %s", name, b.Name)
		}
	}
	assert.Empty(t, r2Keys(t, "custom/"+appID+"/"), "no bomb is stored")
	stored := 0
	for name, upload := range paths {
		for kind, b := range imagebombs.Ordinary() {
			status, code := upload(b, "ok_"+strings.ReplaceAll(kind, "-", "_"))
			assert.Equal(t, 201, status, "%s: %s: %s", name, kind, code)
			stored++
		}
	}
	assert.Len(t, r2Keys(t, "custom/"+appID+"/"), stored)
}
