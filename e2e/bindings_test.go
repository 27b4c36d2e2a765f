package e2e

import (
	"encoding/base64"
	"fmt"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestKV(t *testing.T) {
	prefix := fmt.Sprintf("kv%d-", time.Now().UnixNano())
	for i := 0; i < 5; i++ {
		r := call(t, "PUT", fmt.Sprintf("/__diag/kv/%s%d", prefix, i), []byte(fmt.Sprintf("value %d", i)))
		require.Equal(t, 200, r.Status, string(r.Body))
	}
	got := get(t, "/__diag/kv/"+prefix+"3").JSON(t)
	assert.Equal(t, true, got["found"])
	assert.Equal(t, "value 3", got["value"])

	page := get(t, "/__diag/kv?prefix="+prefix+"&limit=2").JSON(t)
	keys := page["keys"].([]any)
	require.Len(t, keys, 2)
	assert.Equal(t, prefix+"0", keys[0].(map[string]any)["name"])
	assert.Equal(t, false, page["list_complete"])
	var names []string
	cursor := page["cursor"].(string)
	for _, k := range keys {
		names = append(names, k.(map[string]any)["name"].(string))
	}
	for cursor != "" {
		p := get(t, "/__diag/kv?prefix="+prefix+"&limit=2&cursor="+cursor).JSON(t)
		for _, k := range p["keys"].([]any) {
			names = append(names, k.(map[string]any)["name"].(string))
		}
		cursor, _ = p["cursor"].(string)
		if p["list_complete"] == true {
			break
		}
	}
	assert.Equal(t, []string{prefix + "0", prefix + "1", prefix + "2", prefix + "3", prefix + "4"}, names)

	require.Equal(t, 200, call(t, "DELETE", "/__diag/kv/"+prefix+"3", nil).Status)
	assert.Equal(t, false, get(t, "/__diag/kv/"+prefix+"3").JSON(t)["found"])

	meta := call(t, "PUT", "/__diag/kv/"+prefix+"meta?ttl=120&meta=%7B%22v%22%3A1%7D", []byte("m"))
	require.Equal(t, 200, meta.Status, string(meta.Body))
	listed := get(t, "/__diag/kv?prefix="+prefix+"meta").JSON(t)["keys"].([]any)[0].(map[string]any)
	assert.Equal(t, map[string]any{"v": 1.0}, listed["metadata"])
	assert.Greater(t, listed["expiration"].(float64), float64(time.Now().Unix()+100))

	short := call(t, "PUT", "/__diag/kv/"+prefix+"short?ttl=30", []byte("x"))
	assert.Equal(t, 400, short.Status, "expirationTtl under 60 s is refused")
	assert.Contains(t, short.JSON(t)["error"], "60")
}

func TestOutboundFetchIsRealHTTP(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/redirect" {
			http.Redirect(w, r, "/target", http.StatusFound)
			return
		}
		_, _ = w.Write([]byte("hello from " + r.URL.Path))
	})}
	go func() { _ = srv.Serve(ln) }()
	defer srv.Close()
	origin := "http://" + ln.Addr().String()

	r := get(t, "/__diag/fetch?url="+origin+"/upstream").JSON(t)
	require.Contains(t, r, "status", r)
	assert.Equal(t, 200.0, r["status"])
	body, _ := base64.StdEncoding.DecodeString(r["body"].(string))
	assert.Equal(t, "hello from /upstream", string(body))

	followed := get(t, "/__diag/fetch?url="+origin+"/redirect").JSON(t)
	body, _ = base64.StdEncoding.DecodeString(followed["body"].(string))
	assert.Equal(t, "hello from /target", string(body))

	manual := get(t, "/__diag/fetch?redirect=manual&url="+origin+"/redirect").JSON(t)
	assert.Equal(t, 302.0, manual["status"])
	assert.Equal(t, "/target", manual["location"])
}
