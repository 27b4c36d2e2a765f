package accounts

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/emojisearch/emojisearch/service/apikey"
	"github.com/emojisearch/emojisearch/service/store"
)

// Key is a stored API key, without its hash.
type Key struct {
	ID             string   `json:"id"`
	AppID          string   `json:"app_id"`
	Kind           string   `json:"kind"`
	Hint           string   `json:"hint"`
	AllowedOrigins []string `json:"-"`
	CreatedAt      int64    `json:"created_at"`
	RevokedAt      *int64   `json:"revoked_at"`
}

// keyRow is a Key as its row holds it (origins as JSON text).
type keyRow struct {
	Key
	Origins string `json:"allowed_origins"`
}

func (k keyRow) key() (Key, error) {
	out := k.Key
	if err := json.Unmarshal([]byte(k.Origins), &out.AllowedOrigins); err != nil {
		return Key{}, err
	}
	if out.AllowedOrigins == nil {
		out.AllowedOrigins = []string{}
	}
	return out, nil
}

const keyCols = "id, app_id, kind, hint, allowed_origins, created_at, revoked_at"

func originsJSON(origins []string) (string, error) {
	if origins == nil {
		origins = []string{}
	}
	b, err := json.Marshal(origins)
	return string(b), err
}

// CreateKey generates a key of the kind for an app and stores its hash;
// the full key is returned once, here, and never stored.
func (r *Repo) CreateKey(ctx context.Context, appID, kind string, origins []string) (Key, string, error) {
	gen, err := apikey.New(kind)
	if err != nil {
		return Key{}, "", err
	}
	oj, err := originsJSON(origins)
	if err != nil {
		return Key{}, "", err
	}
	k := Key{ID: NewID("key"), AppID: appID, Kind: kind, Hint: gen.Hint,
		AllowedOrigins: append([]string{}, origins...), CreatedAt: r.nowMs()}
	_, err = r.db.Run(ctx, store.Q(`INSERT INTO api_keys (id, app_id, kind, hash, hint, allowed_origins, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?)`, k.ID, k.AppID, k.Kind, gen.Hash, k.Hint, oj, k.CreatedAt))
	if errors.Is(err, store.ErrConstraint) && !errors.Is(err, store.ErrUnique) {
		return Key{}, "", ErrNotFound // the app is gone (foreign key)
	}
	if err != nil {
		return Key{}, "", err
	}
	return k, gen.Full, nil
}

// ListKeys returns an app's keys, revoked ones included, oldest first.
func (r *Repo) ListKeys(ctx context.Context, appID string) ([]Key, error) {
	res, err := r.db.All(ctx, store.Q("SELECT "+keyCols+" FROM api_keys WHERE app_id = ? ORDER BY created_at, rowid", appID))
	if err != nil {
		return nil, err
	}
	return keys(res.Rows)
}

func keys(rows []store.Row) ([]Key, error) {
	krs, err := store.DecodeAll[keyRow](rows)
	if err != nil {
		return nil, err
	}
	out := make([]Key, len(krs))
	for i, kr := range krs {
		if out[i], err = kr.key(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Key returns a key by id.
func (r *Repo) Key(ctx context.Context, keyID string) (Key, error) {
	return oneKey(r.db.All(ctx, store.Q("SELECT "+keyCols+" FROM api_keys WHERE id = ?", keyID)))
}

// oneKey is the key of a one-row result; ErrNotFound when it has none.
func oneKey(res store.Result, err error) (Key, error) {
	if err != nil {
		return Key{}, err
	}
	ks, err := keys(res.Rows)
	if err != nil {
		return Key{}, err
	}
	if len(ks) == 0 {
		return Key{}, ErrNotFound
	}
	return ks[0], nil
}

// SetAllowedOrigins replaces an active key's allowed origins
// (ErrKeyRevoked for a revoked key).
func (r *Repo) SetAllowedOrigins(ctx context.Context, keyID string, origins []string) (Key, error) {
	oj, err := originsJSON(origins)
	if err != nil {
		return Key{}, err
	}
	k, err := oneKey(r.db.All(ctx, store.Q(`UPDATE api_keys SET allowed_origins = ? WHERE id = ? AND revoked_at IS NULL
		RETURNING `+keyCols, oj, keyID)))
	if errors.Is(err, ErrNotFound) {
		if _, err := r.Key(ctx, keyID); err != nil {
			return Key{}, err
		}
		return Key{}, ErrKeyRevoked
	}
	return k, err
}

// RevokeKey marks a key revoked; the row stays. Revoking twice keeps the
// first time.
func (r *Repo) RevokeKey(ctx context.Context, keyID string) (Key, error) {
	return oneKey(r.db.All(ctx, store.Q(`UPDATE api_keys SET revoked_at = coalesce(revoked_at, ?) WHERE id = ?
		RETURNING `+keyCols, r.nowMs(), keyID)))
}

// KeyRecord is what the search service needs to know about a presented key.
type KeyRecord struct {
	KeyID          string
	AppID          string
	AccountID      string
	Kind           string
	AllowedOrigins []string
	Revoked        bool
	AppEnvironment string
	Plan           string
}

// LookupKey finds a key by the SHA-256 hash of the presented key
// (apikey.Hash); found is false for an unknown key. Revoked keys are found
// with Revoked set, so a cache can remember the refusal too.
func (r *Repo) LookupKey(ctx context.Context, hash string) (KeyRecord, bool, error) {
	row, err := r.db.First(ctx, store.Q(`SELECT k.id, k.app_id, a.account_id, k.kind, k.allowed_origins,
			k.revoked_at IS NOT NULL AS revoked, a.environment, o.plan
		FROM api_keys k JOIN apps a ON a.id = k.app_id JOIN accounts o ON o.id = a.account_id
		WHERE k.hash = ?`, hash))
	if err != nil || row == nil {
		return KeyRecord{}, false, err
	}
	var v struct {
		ID          string `json:"id"`
		AppID       string `json:"app_id"`
		AccountID   string `json:"account_id"`
		Kind        string `json:"kind"`
		Origins     string `json:"allowed_origins"`
		Revoked     int64  `json:"revoked"`
		Environment string `json:"environment"`
		Plan        string `json:"plan"`
	}
	if err := store.Decode(row, &v); err != nil {
		return KeyRecord{}, false, err
	}
	rec := KeyRecord{KeyID: v.ID, AppID: v.AppID, AccountID: v.AccountID, Kind: v.Kind,
		Revoked: v.Revoked != 0, AppEnvironment: v.Environment, Plan: v.Plan, AllowedOrigins: []string{}}
	if err := json.Unmarshal([]byte(v.Origins), &rec.AllowedOrigins); err != nil {
		return KeyRecord{}, false, err
	}
	return rec, true, nil
}
