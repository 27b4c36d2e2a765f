package evalkit

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEverydayMessages: twenty everyday chat messages per locale, written by
// us (engine/testdata/messages, the same twenty situations in every
// language, most built on function words: "я заболел", "on joue au foot",
// "في صحتك"), keep an expected emoji in the top 3 for at least 18 of 20 with
// the dictionary alone (issue 29's bar for everyday messages).
func TestEverydayMessages(t *testing.T) {
	eachLocaleSet(t, "messages", "*.messages.jsonl", func(t *testing.T, loc string, rows []Row, m Metrics) {
		require.Len(t, rows, 20)
		assert.GreaterOrEqual(t, m.Hit3*20, 17.999, "%s: hit@3 %.2f", loc, m.Hit3)
	})
}
