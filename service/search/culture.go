package search

import (
	"context"
	"sync"

	"github.com/emojisearch/emojisearch/engine/culture"
)

// CultureLoader reads a locale's culture file; found is false when the
// locale has none.
type CultureLoader interface {
	LoadCulture(ctx context.Context, locale string) (data []byte, found bool, err error)
}

// Cultures keeps each locale's parsed culture file for the life of an
// instance (a locale without one is remembered too); a failed read is
// retried on the next request. No lock is held while reading.
type Cultures struct {
	loader CultureLoader
	mu     sync.Mutex
	files  map[string]*culture.File // nil value: the locale has no file
}

// NewCultures returns an empty per-instance culture cache.
func NewCultures(loader CultureLoader) *Cultures {
	return &Cultures{loader: loader, files: map[string]*culture.File{}}
}

// File returns the locale's culture file, or nil when it has none.
func (c *Cultures) File(ctx context.Context, locale string) (*culture.File, error) {
	c.mu.Lock()
	f, ok := c.files[locale]
	c.mu.Unlock()
	if ok {
		return f, nil
	}
	data, found, err := c.loader.LoadCulture(ctx, locale)
	if err != nil {
		return nil, err
	}
	if found {
		if f, err = culture.Parse(data); err != nil {
			return nil, err
		}
	}
	c.mu.Lock()
	c.files[locale] = f
	c.mu.Unlock()
	return f, nil
}

// applyCulture adds the culture layer to a canonical answer (spec 1,
// culture rules: after the shared cache, on the request's UTC day).
func (s *Service) applyCulture(ctx context.Context, p Params, res *Response) {
	if !p.Culture || s.cfg.Cultures == nil {
		return
	}
	file, err := s.cfg.Cultures.File(ctx, p.Locale)
	if err != nil || file == nil {
		return
	}
	day := culture.UTCDay(s.cfg.Now())
	res.Results = culture.ApplyCulture(file, res.Query, res.Results, culture.Options{Day: day, Region: p.Region, Limit: p.Limit})
	res.Culture = file.Info(day, p.Region)
}
