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
	return jsutil.OpenBinding(name, func(v js.Value) *Client { return &Client{v: v} })
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

// RunImage calls model with inputs plus an `image` field holding image as
// an array of integers 0..255, the form Workers AI's vision models take.
// The array is made in JS from a Uint8Array (Array.from), not through
// JSON: a 256 KB image would be a 1 MB JSON text to write and parse.
func (c *Client) RunImage(ctx context.Context, model string, inputs any, image []byte, out any) error {
	in, err := jsutil.FromJSON(inputs)
	if err != nil {
		return err
	}
	in.Set("image", jsutil.Array.Call("from", jsutil.NewBytes(image)))
	res, err := jsutil.CallAwait(ctx, c.v, "run", model, in)
	if err != nil {
		return err
	}
	return jsutil.ToJSON(res, out)
}
