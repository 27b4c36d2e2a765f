package cf_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/hostsim/internal/cf"
	"github.com/emojisearch/emojisearch/hostsim/internal/jsrt"
	"github.com/emojisearch/emojisearch/hostsim/internal/jsrt/jsrttest"
	"github.com/emojisearch/emojisearch/hostsim/internal/webapi"
)

// echoModel answers in the Workers AI embedding shape: {shape, data}.
type echoModel struct{}

func (echoModel) Run(_ context.Context, model string, inputs any) (any, error) {
	if model != "@cf/test/embed" {
		return nil, errors.New("unknown model " + model)
	}
	texts := inputs.(map[string]any)["text"].([]any)
	data := make([]any, len(texts))
	for i, tx := range texts {
		data[i] = []any{float64(len(tx.(string))), 1.0}
	}
	return map[string]any{"shape": []any{float64(len(texts)), 2.0}, "data": data}, nil
}

func settle(t *testing.T, rt *jsrt.Runtime, p jsrt.Value) (jsrt.Value, jsrt.Value) {
	t.Helper()
	return jsrttest.Settle(t, rt, func() jsrt.Value { return p })
}

func TestAIRunSpeaksTheWorkersAIShape(t *testing.T) {
	rt := jsrt.New()
	go rt.Run(context.Background())
	defer rt.Close()
	calls := make(chan jsrt.Value, 2)
	rt.Post(func() {
		ai := cf.Realm{RT: rt, Web: webapi.Install(rt)}.AI(echoModel{})
		inputs := rt.NewObject()
		inputs.Define("text", rt.NewArray("cat", "party"))
		p, err := rt.CallMethod(ai, "run", "@cf/test/embed", inputs)
		require.NoError(t, err)
		calls <- p
		bad, err := rt.CallMethod(ai, "run", "@cf/other", inputs)
		require.NoError(t, err)
		calls <- bad
	})
	out, rejected := settle(t, rt, <-calls)
	require.Nil(t, rejected)
	s, err := jsrt.StringifyJSON(out)
	require.NoError(t, err)
	assert.JSONEq(t, `{"shape":[2,2],"data":[[3,1],[5,1]]}`, s)

	_, rejected = settle(t, rt, <-calls)
	require.NotNil(t, rejected)
	assert.Contains(t, jsrt.ToString(rejected), "unknown model")
}
