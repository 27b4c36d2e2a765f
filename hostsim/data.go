package hostsim

import (
	"context"

	"github.com/emojisearch/emojisearch/hostsim/internal/binding"
	"github.com/emojisearch/emojisearch/hostsim/internal/jsrt"
)

type namedBinding struct {
	name string
	make func(binding.Realm) *jsrt.Object
}

// openDataBindings opens D1, R2, the Cache API and rate limiters.
func (s *Simulator) openDataBindings(ctx context.Context) ([]namedBinding, error) {
	return nil, nil
}
