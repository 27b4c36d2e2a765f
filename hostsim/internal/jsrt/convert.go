package jsrt

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
)

// FromGo converts a decoded JSON-like Go value (map[string]any, []any,
// string, float64, json.Number, int types, bool, nil, []byte) into JS.
// Map keys are sorted so the result is deterministic.
func (rt *Runtime) FromGo(v any) Value {
	switch x := v.(type) {
	case nil:
		return Null
	case Value:
		switch x.(type) {
		case undefinedType, nullType, *Object:
			return x
		}
	}
	switch x := v.(type) {
	case bool:
		return x
	case string:
		return x
	case float64:
		return x
	case float32:
		return float64(x)
	case int:
		return float64(x)
	case int64:
		return float64(x)
	case uint32:
		return float64(x)
	case json.Number:
		f, _ := x.Float64()
		return f
	case []byte:
		return rt.NewBytes(append([]byte(nil), x...))
	case []string:
		out := make([]Value, len(x))
		for i, s := range x {
			out[i] = s
		}
		return rt.NewArray(out...)
	case []any:
		out := make([]Value, len(x))
		for i, e := range x {
			out[i] = rt.FromGo(e)
		}
		return rt.NewArray(out...)
	case map[string]any:
		o := rt.NewObject()
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			o.Define(k, rt.FromGo(x[k]))
		}
		return o
	case map[string]string:
		o := rt.NewObject()
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			o.Define(k, x[k])
		}
		return o
	}
	return Undefined
}

// ToGo converts a JS value into JSON-like Go values (what JSON.stringify
// would keep): objects become map[string]any, arrays []any, byte arrays
// []byte; functions and undefined become nil.
func ToGo(v Value) any {
	return toGo(v, 0)
}

func toGo(v Value, depth int) any {
	if depth > 64 {
		return nil
	}
	switch x := v.(type) {
	case bool, string:
		return x
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil
		}
		return x
	case *Object:
		switch {
		case x.call != nil:
			return nil
		case x.kind == kindBytes || x.kind == kindBuffer:
			return append([]byte(nil), x.bytes...)
		case x.kind == kindArray:
			out := make([]any, len(x.elems))
			for i, e := range x.elems {
				out[i] = toGo(e, depth+1)
			}
			return out
		}
		if ms, ok := x.Internal.(float64); ok && x.class == "Date" {
			return ms
		}
		out := map[string]any{}
		for _, k := range x.Keys() {
			val := x.MustGet(k)
			if IsUndefined(val) {
				continue
			}
			out[k] = toGo(val, depth+1)
		}
		return out
	}
	return nil
}

// ParseJSON is JSON.parse.
func (rt *Runtime) ParseJSON(text string) (Value, error) {
	var v any
	if err := json.Unmarshal([]byte(text), &v); err != nil {
		return nil, &Throw{Value: rt.newErrorOf(rt.Global.MustGet("SyntaxError").(*Object), fmt.Sprintf("Unexpected token in JSON: %v", err))}
	}
	return rt.FromGo(v), nil
}

// StringifyJSON is JSON.stringify for data values.
func StringifyJSON(v Value) (string, error) {
	b, err := json.Marshal(ToGo(v))
	return string(b), err
}

func (rt *Runtime) installJSON() {
	j := rt.NewObject()
	rt.Method(j, "parse", func(_ Value, args []Value) (Value, error) {
		return rt.ParseJSON(ToString(arg(args, 0)))
	})
	rt.Method(j, "stringify", func(_ Value, args []Value) (Value, error) {
		if IsUndefined(arg(args, 0)) {
			return Undefined, nil
		}
		s, err := StringifyJSON(args[0])
		if err != nil {
			return nil, rt.ThrowTypeError("%v", err)
		}
		return s, nil
	})
	rt.Global.Define("JSON", j)
}
