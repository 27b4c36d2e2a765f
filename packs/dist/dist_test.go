package dist

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBuiltin(t *testing.T) {
	files, err := Builtin()
	require.NoError(t, err)
	assert.Len(t, files, 2)
	hash, err := DataHash()
	require.NoError(t, err)
	assert.Len(t, hash, 64)
}
