package e2e

import (
	"bytes"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestHandlerPanicAnswers500AndInstanceSurvives(t *testing.T) {
	before := get(t, "/__diag/instance").JSON(t)
	r := get(t, "/__diag/panic")
	require.Equal(t, 500, r.Status)
	assert.Equal(t, "internal error", r.JSON(t)["error"])
	assert.Equal(t, "no-store", r.Header.Get("Cache-Control"))
	after := get(t, "/__diag/instance").JSON(t)
	assert.Equal(t, before["startedAt"], after["startedAt"], "a handler panic does not restart Go")
}

func TestExitStartsAFreshInstance(t *testing.T) {
	before := get(t, "/__diag/instance").JSON(t)
	time.Sleep(5 * time.Millisecond)
	r := call(t, "POST", "/__diag/exit", nil)
	require.Contains(t, []int{202, 500}, r.Status)
	eventually(t, 10*time.Second, func() bool {
		res := get(t, "/__diag/instance")
		return res.Status == 200 && res.JSON(t)["startedAt"] != before["startedAt"]
	}, "no fresh instance after the Go program exited")
	assert.Equal(t, 200, get(t, "/v1/health").Status)
}

func TestWaitUntilRunsAfterTheResponse(t *testing.T) {
	key := fmt.Sprintf("wait-%d", time.Now().UnixNano())
	start := time.Now()
	r := call(t, "POST", "/__diag/wait?key="+key+"&ms=400", nil)
	require.Equal(t, 200, r.Status)
	assert.Less(t, time.Since(start), 400*time.Millisecond, "the response does not wait for background work")
	assert.Equal(t, false, get(t, "/__diag/kv/"+key).JSON(t)["found"])
	eventually(t, 10*time.Second, func() bool {
		return get(t, "/__diag/kv/"+key).JSON(t)["found"] == true
	}, "waitUntil work never completed")
}

func TestOversizedBodyIsRefused(t *testing.T) {
	r := call(t, "POST", "/v1/health", bytes.Repeat([]byte("x"), 2<<20))
	require.Equal(t, 413, r.Status)
	assert.Equal(t, 200, get(t, "/v1/health").Status)
}

// A client that promises a body and disconnects half way must not hurt
// anyone else.
func TestClientDisconnectMidBody(t *testing.T) {
	for i := 0; i < 5; i++ {
		conn, err := net.Dial("tcp", strings.TrimPrefix(tgt.base, "http://"))
		require.NoError(t, err)
		_, err = fmt.Fprintf(conn, "POST /v1/health HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100000\r\n\r\npartial")
		require.NoError(t, err)
		time.Sleep(20 * time.Millisecond)
		conn.Close()
	}
	assert.Equal(t, 200, get(t, "/v1/health").Status)
}

// A body that never ends while the client stays connected: the server keeps
// answering everyone else.
func TestNeverEndingBody(t *testing.T) {
	conn, err := net.Dial("tcp", strings.TrimPrefix(tgt.base, "http://"))
	require.NoError(t, err)
	defer conn.Close()
	_, err = fmt.Fprintf(conn, "POST /v1/health HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n")
	require.NoError(t, err)
	for i := 0; i < 3; i++ {
		assert.Equal(t, 200, get(t, "/v1/health").Status)
	}
}
