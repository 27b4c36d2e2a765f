package filestore

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNewEnv(t *testing.T) {
	env, err := NewEnv("dir", NewConfig())
	require.NoError(t, err)
	assert.NotNil(t, env.Now)
	assert.NotNil(t, env.Rand)

	now := func() time.Time { return t0 }
	r := strings.NewReader("x")
	env, err = NewEnv("dir", NewConfig().WithClock(now).WithRand(r))
	require.NoError(t, err)
	assert.Equal(t, t0, env.Now())
	assert.Same(t, r, env.Rand)

	_, err = NewEnv("", NewConfig().WithClock(nil).WithRand(nil))
	require.Error(t, err)
	for _, want := range []string{"empty directory name", "WithClock", "WithRand"} {
		assert.Contains(t, err.Error(), want, "every problem is reported")
	}
}
