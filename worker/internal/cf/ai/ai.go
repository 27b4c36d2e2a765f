//go:build js && wasm

// Package ai wraps the Workers AI binding: env.AI.run(model, inputs) with
// inputs and outputs as JSON-shaped Go values.
package ai

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
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

// RunRows calls an embedding model and returns its answer's `data` rows
// (Workers AI answers {shape, data: number[][]}). Each row crosses to Go
// as one string (Array.prototype.join, which prints numbers so they read
// back exactly) parsed with strconv: the same answer through
// JSON.stringify and encoding/json's reflection costs about 20 times
// more in js/wasm. A row holding anything but numbers is an error.
func (c *Client) RunRows(ctx context.Context, model string, inputs any) ([][]float64, error) {
	in, err := jsutil.FromJSON(inputs)
	if err != nil {
		return nil, err
	}
	res, err := jsutil.CallAwait(ctx, c.v, "run", model, in)
	if err != nil {
		return nil, err
	}
	if res.Type() != js.TypeObject {
		return nil, errors.New("the answer is not an object")
	}
	data := res.Get("data")
	if !isArray(data) {
		return nil, errors.New("the answer has no data rows")
	}
	rows := make([][]float64, data.Length())
	for i := range rows {
		r := data.Index(i)
		if !isArray(r) {
			return nil, fmt.Errorf("data row %d is not an array", i)
		}
		n := r.Length()
		if n == 0 {
			rows[i] = []float64{}
			continue
		}
		row := make([]float64, 0, n)
		for f := range strings.SplitSeq(r.Call("join", ",").String(), ",") {
			v, err := strconv.ParseFloat(f, 64)
			if err != nil {
				return nil, fmt.Errorf("data row %d holds a non-number", i)
			}
			row = append(row, v)
		}
		if len(row) != n { // a nested array joins into more numbers
			return nil, fmt.Errorf("data row %d holds a non-number", i)
		}
		rows[i] = row
	}
	return rows, nil
}

func isArray(v js.Value) bool {
	return v.Type() == js.TypeObject && jsutil.Array.Call("isArray", v).Bool()
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
