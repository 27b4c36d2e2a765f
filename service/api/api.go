// Package api assembles the search service's HTTP surface (spec 1): the
// routes, and the conventions every route shares. The worker calls New with
// what the platform bound; native tests call it with local stand-ins.
package api

import (
	"context"
	"net/http"

	"github.com/emojisearch/emojisearch/service/httpx"
)

// Config is what the service reads from its deployment (wrangler.toml vars
// and bindings).
type Config struct {
	// PackVersion names the data served (var PACK_VERSION).
	PackVersion string
	// Model is `<model_key>@<dims>` of the embedding model (var EMBED_MODEL).
	Model string
	// Semantic reports that an embedding backend is bound.
	Semantic bool
	// SemanticCheck, when set, tells /v1/health whether the bound backend
	// answers now (the breaker's state, or a probe): a bound model that is
	// down or missing reads `semantic: false` (issue 31).
	SemanticCheck func(ctx context.Context) bool
	// Search answers GET /v1/search (service/search); nil leaves the route
	// out.
	Search http.Handler
	// Reactions answers POST /v1/suggest-reactions (service/reactions);
	// nil leaves the route out.
	Reactions http.Handler
	// Classify answers POST /v1/classify-image (service/classify); nil
	// leaves the route out.
	Classify http.Handler
	// Guard admits callers of the metered routes (service/access: keys,
	// origins, rate limits) and puts the caller in the request context;
	// nil admits everyone as anonymous.
	Guard func(http.Handler) http.Handler
	// Dashboard registers the /api routes (service/dashboard); nil leaves
	// them out.
	Dashboard func(*httpx.Router)
}

// Service is the HTTP handler of the search service.
type Service struct {
	cfg    Config
	router *httpx.Router
}

// New returns the service with every route registered. Extra registers
// routes of optional surfaces (the test build's diagnostics).
func New(cfg Config, extra ...func(*httpx.Router)) *Service {
	s := &Service{cfg: cfg, router: &httpx.Router{
		NotFound:  httpx.NotFound(),
		BadMethod: httpx.MethodNotAllowed,
		Preflight: httpx.Preflight,
	}}
	s.router.HandleFunc(http.MethodGet, "/v1/health", s.health)
	guard := cfg.Guard
	if guard == nil {
		guard = func(h http.Handler) http.Handler { return h }
	}
	if cfg.Search != nil {
		s.router.Handle(http.MethodGet, "/v1/search", guard(cfg.Search))
	}
	if cfg.Reactions != nil {
		s.router.Handle(http.MethodPost, "/v1/suggest-reactions", guard(cfg.Reactions))
	}
	if cfg.Classify != nil {
		s.router.Handle(http.MethodPost, "/v1/classify-image", guard(cfg.Classify))
	}
	if cfg.Dashboard != nil {
		cfg.Dashboard(s.router)
	}
	for _, register := range extra {
		register(s.router)
	}
	return s
}

func (s *Service) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	httpx.CORS(httpx.HTTPSOnly(s.router)).ServeHTTP(w, r)
}

// Routes lists the route patterns the service answers.
func (s *Service) Routes() []string { return s.router.Patterns() }

// health answers GET /v1/health (spec 1, Health response). It is never
// cached so monitors see the instance as it is.
func (s *Service) health(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	semantic := s.cfg.Semantic
	if semantic && s.cfg.SemanticCheck != nil {
		semantic = s.cfg.SemanticCheck(r.Context())
	}
	httpx.JSON(w, http.StatusOK, struct {
		OK          bool   `json:"ok"`
		PackVersion string `json:"packVersion"`
		Model       string `json:"model"`
		Semantic    bool   `json:"semantic"`
	}{true, s.cfg.PackVersion, s.cfg.Model, semantic})
}
