//go:build js && wasm

// Package ai wraps the Workers AI binding: env.AI.run(model, inputs) with
// inputs and outputs as JSON-shaped Go values.
package ai

import (
	"context"
	"syscall/js"

	"github.com/emojisearch/emojisearch/worker/internal/jsutil"
)

// Client is the AI binding.
type Client struct{ v js.Value }

// Open returns the AI binding bound as name, or jsutil.ErrUnbound.
func Open(name string) (*Client, error) {
	v := jsutil.Env().Get(name)
	if v.IsUndefined() {
		return nil, jsutil.ErrUnbound
	}
	return &Client{v: v}, nil
}

// Run calls model with inputs and decodes the output into out.
func (c *Client) Run(ctx context.Context, model string, inputs, out any) error {
	in, err := jsutil.FromJSON(inputs)
	if err != nil {
		return err
	}
	res, err := jsutil.CallAwait(ctx, c.v, "run", model, in)
	if err != nil {
		return err
	}
	return jsutil.ToJSON(res, out)
}
