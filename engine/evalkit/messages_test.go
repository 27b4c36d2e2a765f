package evalkit

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/engine"
)

// TestEverydayMessages: twenty everyday chat messages per locale, written by
// us (engine/testdata/messages, the same twenty situations in every
// language, most built on function words: "я заболел", "on joue au foot",
// "في صحتك"), keep an expected emoji in the top 3 for at least 18 of 20 with
// the dictionary alone (issue 29's bar for everyday messages).
func TestEverydayMessages(t *testing.T) {
	engs := engines(t)
	files, err := filepath.Glob(filepath.Join("..", "testdata", "messages", "*.messages.jsonl"))
	require.NoError(t, err)
	require.Len(t, files, len(engs))
	for _, f := range files {
		loc := strings.SplitN(filepath.Base(f), ".", 2)[0]
		t.Run(loc, func(t *testing.T) {
			rows, err := ReadSet(f)
			require.NoError(t, err)
			require.Len(t, rows, 20)
			m := Evaluate(engs[loc], rows, engine.Options{Limit: 10, Locale: loc})
			assert.GreaterOrEqual(t, m.Hit3*20, 17.999, "%s: hit@3 %.2f", loc, m.Hit3)
		})
	}
}
