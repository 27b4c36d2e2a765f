package isolate

import (
	"net/http"
	"sort"
)

func sortedHeaderNames(h http.Header) []string {
	keys := make([]string, 0, len(h))
	for k := range h {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
