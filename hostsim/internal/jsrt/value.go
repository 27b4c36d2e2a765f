package jsrt

import (
	"math"
	"strconv"
	"strings"
)

// Value is a JS value: Undefined, Null, bool, float64, string or *Object.
// A nil Value is read as undefined.
type Value any

type undefinedType struct{}
type nullType struct{}

// Undefined and Null are the two JS unit values.
var (
	Undefined Value = undefinedType{}
	Null      Value = nullType{}
)

// IsUndefined reports whether v is undefined (or a nil Value).
func IsUndefined(v Value) bool {
	if v == nil {
		return true
	}
	_, ok := v.(undefinedType)
	return ok
}

// IsNullish reports whether v is null or undefined.
func IsNullish(v Value) bool {
	_, isNull := v.(nullType)
	return isNull || IsUndefined(v)
}

// TypeOf returns what the JS typeof operator answers for v.
func TypeOf(v Value) string {
	switch x := v.(type) {
	case nil, undefinedType:
		return "undefined"
	case nullType:
		return "object"
	case bool:
		return "boolean"
	case float64:
		return "number"
	case string:
		return "string"
	case *Object:
		if x.call != nil {
			return "function"
		}
		return "object"
	}
	return "undefined"
}

// Truthy is JS ToBoolean.
func Truthy(v Value) bool {
	switch x := v.(type) {
	case bool:
		return x
	case float64:
		return x != 0 && !math.IsNaN(x)
	case string:
		return x != ""
	case *Object:
		return true
	}
	return false
}

// ToNumber is JS ToNumber for the primitive cases a Go module produces.
func ToNumber(v Value) float64 {
	switch x := v.(type) {
	case bool:
		if x {
			return 1
		}
		return 0
	case float64:
		return x
	case string:
		s := strings.TrimSpace(x)
		if s == "" {
			return 0
		}
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return math.NaN()
		}
		return f
	case nullType:
		return 0
	case *Object:
		if x.kind == kindArray && len(x.elems) == 0 {
			return 0
		}
	}
	return math.NaN()
}

// ToString is JS String(v).
func ToString(v Value) string {
	switch x := v.(type) {
	case nil, undefinedType:
		return "undefined"
	case nullType:
		return "null"
	case bool:
		if x {
			return "true"
		}
		return "false"
	case float64:
		return FormatNumber(x)
	case string:
		return x
	case *Object:
		return x.String()
	}
	return ""
}

// FormatNumber prints a float64 the way JS Number.prototype.toString does.
func FormatNumber(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case f == 0:
		return "0"
	}
	abs := math.Abs(f)
	if abs >= 1e-6 && abs < 1e21 {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	s := strconv.FormatFloat(f, 'e', -1, 64)
	// Go writes 1e+21 as "1e+21" and 1e-07 as "1e-07"; JS drops the zero padding.
	mant, exp, _ := strings.Cut(s, "e")
	sign := exp[0]
	exp = strings.TrimLeft(exp[1:], "0")
	return mant + "e" + string(sign) + exp
}

// SameValueZero is the equality JS Maps and Array.prototype.includes use.
func SameValueZero(a, b Value) bool {
	if IsUndefined(a) && IsUndefined(b) {
		return true
	}
	fa, okA := a.(float64)
	fb, okB := b.(float64)
	if okA && okB {
		return fa == fb || (math.IsNaN(fa) && math.IsNaN(fb))
	}
	return a == b
}
