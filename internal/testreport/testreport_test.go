package testreport

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const stream = `{"Action":"run","Package":"p/a","Test":"TestFast"}
{"Action":"output","Package":"p/a","Test":"TestFast","Output":"=== RUN   TestFast\n"}
{"Action":"pass","Package":"p/a","Test":"TestFast","Elapsed":0.01}
{"Action":"output","Package":"p/a","Test":"TestSlow/case","Output":"sub\n"}
{"Action":"pass","Package":"p/a","Test":"TestSlow/case","Elapsed":2.5}
{"Action":"pass","Package":"p/a","Test":"TestSlow","Elapsed":2.6}
{"Action":"pass","Package":"p/a","Elapsed":2.7}
{"Action":"output","Package":"p/b","Test":"TestBroken","Output":"    b_test.go:9: want 1, got 2\n"}
{"Action":"fail","Package":"p/b","Test":"TestBroken","Elapsed":1.2}
{"Action":"output","Package":"p/b","Output":"FAIL\n"}
{"Action":"fail","Package":"p/b","Elapsed":1.3}
{"ImportPath":"p/d","Action":"build-output","Output":"d.go:1:1: expected 'package'\n"}
{"ImportPath":"p/d","Action":"build-fail"}
# p/c
c.go:3:1: syntax error
`

func TestRead(t *testing.T) {
	var out bytes.Buffer
	rep, err := Read(strings.NewReader(stream), &out)
	require.NoError(t, err)
	assert.True(t, rep.Failed)
	assert.Equal(t, []Timing{
		{"p/a", "TestSlow", 2600 * time.Millisecond},
		{"p/b", "TestBroken", 1200 * time.Millisecond},
		{"p/a", "TestFast", 10 * time.Millisecond},
	}, rep.Slowest, "top-level tests only, slowest first")
	assert.Equal(t, "ok   p/a 2.7s\n"+
		"    b_test.go:9: want 1, got 2\n"+
		"FAIL\nFAIL p/b 1.3s\n"+
		"d.go:1:1: expected 'package'\n"+
		"# p/c\nc.go:3:1: syntax error\n", out.String(), "passing tests stay quiet; failures and build errors are shown")

	out.Reset()
	rep.WriteSlowest(&out, 2)
	assert.Equal(t, "slowest 2 tests:\n     2.6s  p/a TestSlow\n     1.2s  p/b TestBroken\n", out.String())
}

func TestReadAllPass(t *testing.T) {
	rep, err := Read(strings.NewReader(`{"Action":"pass","Package":"p","Test":"TestX","Elapsed":1}`+"\n"), &bytes.Buffer{})
	require.NoError(t, err)
	assert.False(t, rep.Failed)
	var out bytes.Buffer
	rep.WriteSlowest(&out, 10)
	assert.Equal(t, "slowest 1 tests:\n     1.0s  p TestX\n", out.String())
}
