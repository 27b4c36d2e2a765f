package cf

import (
	"context"

	"github.com/emojisearch/emojisearch/hostsim/internal/jsrt"
)

// Model runs one Workers AI model locally; inputs and output are JSON-like
// Go values in the model's Workers AI shape.
type Model interface {
	Run(ctx context.Context, model string, inputs any) (any, error)
}

// AI returns an Ai binding object whose run(model, inputs) calls m.
func (r Realm) AI(m Model) *jsrt.Object {
	obj := r.RT.NewHostObject(nil, "Ai", m)
	r.method(obj, "run", func(args []jsrt.Value) (func(context.Context) (func() (jsrt.Value, error), error), error) {
		model, ok := jsrt.Arg(args, 0).(string)
		if !ok || model == "" {
			return nil, r.RT.ThrowTypeError("AI.run expects a model name")
		}
		inputs := jsrt.ToGo(jsrt.Arg(args, 1))
		return func(ctx context.Context) (func() (jsrt.Value, error), error) {
			out, err := m.Run(ctx, model, inputs)
			if err != nil {
				return nil, err
			}
			return func() (jsrt.Value, error) { return r.RT.FromGo(out), nil }, nil
		}, nil
	})
	return obj
}
