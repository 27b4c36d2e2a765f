package index

// maxf and minf are max and min of float32 values that are never NaN and
// never -0 (qualities, weights and scores). Go's builtin min and max of
// floats handle NaN and signed zeros, so under js/wasm each is a call into
// the runtime (runtime.fmax32): about 800 calls per search in the posting
// loop and scoring, a fifth of a typing keystroke's time. These inline.
func maxf(a, b float32) float32 {
	if b > a {
		return b
	}
	return a
}

func minf(a, b float32) float32 {
	if b < a {
		return b
	}
	return a
}
