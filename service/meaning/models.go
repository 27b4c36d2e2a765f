// Package meaning is the meaning tier of /v1/search: it embeds the query
// through Workers AI (the AI binding, or the Workers AI REST API when the
// runtime has no binding, as local workerd) and finds the nearest emoji in
// the served vector files — the shared English file plus the locale's own,
// each emoji's best row (spec 3, searchVectorSets). Vector files are read
// from the static assets once per instance.
package meaning

import (
	"fmt"

	"github.com/emojisearch/emojisearch/engine/fusion"
)

// Model is an embedding model the service knows: its `<model_key>@<dims>`
// name (response `model`, vector file names, cache key), the Workers AI
// model it is called as, and its fusion calibration.
type Model struct {
	Name      string
	WorkersAI string
	// Calibration is the cosine range over which the model's top match
	// goes from rarely to usually right (spec 3, semanticConfidence).
	Calibration fusion.Calibration
}

// Models lists the known models. glove-cldr@100 is our local model
// (engine/embed, served by hostsim as @local/glove-cldr); its averaged
// word vectors give high cosines even for loose matches, so its range sits well above bge-m3's.
// Its values are derived by `go run ./packs/cmd/calibrate` (checked by that
// package's test): the names and keywords of the ten other locales' packs
// (53,823 phrases) as queries against the shared English vector file, top-1
// right when the emoji has that phrase; Floor is the cosine where the top
// answer is right half the time, Ceiling where it is right 90 % of the time
// (the probe is optimistic: the model's locale words are built from the same
// emoji texts). Never from the evaluation sets; docs/benchmarks-history.md has the table.
// bge-m3@1024 is the production model with spec 3's
// DEFAULT_SEMANTIC_CALIBRATION.
var Models = []Model{
	{Name: "glove-cldr@100", WorkersAI: "@local/glove-cldr", Calibration: fusion.Calibration{Floor: 0.65, Ceiling: 0.96}},
	{Name: "bge-m3@1024", WorkersAI: "@cf/baai/bge-m3", Calibration: fusion.DefaultSemanticCalibration},
}

// Lookup returns the model by its `<model_key>@<dims>` name.
func Lookup(name string) (Model, error) {
	for _, m := range Models {
		if m.Name == name {
			return m, nil
		}
	}
	return Model{}, fmt.Errorf("meaning: unknown model %q", name)
}
