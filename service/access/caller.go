package access

import "context"

// Environments of an app (the apps.environment column).
const (
	EnvDevelopment = "development"
	EnvProduction  = "production"
)

// AnonReason says why a caller is anonymous.
type AnonReason string

const (
	// AnonNoKey: the request carried no key.
	AnonNoKey AnonReason = "no_key"
	// AnonStoreUnavailable: the request carried a key, the key store could
	// not be read and the key was not in the cache (spec 1, Authentication
	// rule 3). Routes that need a key answer these callers as their spec
	// says for an unreadable database (for example an empty custom pack),
	// not with 401.
	AnonStoreUnavailable AnonReason = "key_store_unavailable"
)

// Caller is who a request speaks for.
type Caller struct {
	Anonymous  bool
	AnonReason AnonReason // set when Anonymous
	// Dev marks a configured development key: it has no app row, is never
	// metered and gets no custom emoji.
	Dev         bool
	KeyID       string
	AppID       string
	AccountID   string
	Kind        string // apikey.Publishable or apikey.Secret
	Plan        string // plans.Free … plans.Scale
	Environment string // EnvDevelopment or EnvProduction
}

type callerKey struct{}

// WithCaller returns ctx carrying c.
func WithCaller(ctx context.Context, c Caller) context.Context {
	return context.WithValue(ctx, callerKey{}, c)
}

// FromContext returns the caller a Guard put in ctx; false when there is
// none (the route is not guarded).
func FromContext(ctx context.Context) (Caller, bool) {
	c, ok := ctx.Value(callerKey{}).(Caller)
	return c, ok
}
