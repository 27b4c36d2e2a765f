package classify

import (
	"context"
	"errors"
	"time"

	"github.com/tinylib/msgp/msgp"
)

// KV is the label cache's store (the KV binding).
type KV interface {
	Get(ctx context.Context, key string) ([]byte, bool, error)
	Put(ctx context.Context, key string, value []byte, ttl time.Duration) error
}

// LabelLifetime is how long a label stays cached: a picture's label does
// not change until the prompt or the model does, and both are in the key.
const LabelLifetime = 30 * 24 * time.Hour

// CacheKey is the label cache key of an image hash (spec 1: keyed by the
// hash, the vision model and the prompt version). It holds no key, app or
// image bytes.
func CacheKey(hash string) string {
	return "img-label:" + VisionModelKey + ":p" + PromptVersion + ":" + hash
}

// labelFormat is the first field of an encoded label; a change of the
// encoding bumps it, and values of another format are misses.
const labelFormat = 1

// MarshalLabel encodes a label as MessagePack with github.com/tinylib/msgp
// (the design names it: compact, no reflection, small in the Worker):
// a map {v, c, r, k, e}.
func MarshalLabel(l Label) []byte {
	b := make([]byte, 0, 64+len(l.Caption)+len(l.Reaction)+16*len(l.Keywords)+8*len(l.Emoji))
	b = msgp.AppendMapHeader(b, 5)
	b = msgp.AppendString(b, "v")
	b = msgp.AppendInt(b, labelFormat)
	b = msgp.AppendString(b, "c")
	b = msgp.AppendString(b, l.Caption)
	b = msgp.AppendString(b, "r")
	b = msgp.AppendString(b, l.Reaction)
	b = appendStrings(msgp.AppendString(b, "k"), l.Keywords)
	b = appendStrings(msgp.AppendString(b, "e"), l.Emoji)
	return b
}

func appendStrings(b []byte, ss []string) []byte {
	b = msgp.AppendArrayHeader(b, uint32(len(ss)))
	for _, s := range ss {
		b = msgp.AppendString(b, s)
	}
	return b
}

// errFormat marks a cached value of another encoding.
var errFormat = errors.New("classify: label of another format")

// UnmarshalLabel decodes MarshalLabel's bytes; unknown fields are skipped,
// and every bound of a label is enforced again (a cached value is input).
func UnmarshalLabel(b []byte) (Label, error) {
	var l Label
	n, b, err := msgp.ReadMapHeaderBytes(b)
	if err != nil {
		return l, err
	}
	version := int64(-1)
	for range n {
		var field string
		if field, b, err = msgp.ReadStringBytes(b); err != nil {
			return l, err
		}
		switch field {
		case "v":
			version, b, err = msgp.ReadInt64Bytes(b)
		case "c":
			l.Caption, b, err = msgp.ReadStringBytes(b)
		case "r":
			l.Reaction, b, err = msgp.ReadStringBytes(b)
		case "k":
			l.Keywords, b, err = readStrings(b, maxKeywords)
		case "e":
			l.Emoji, b, err = readStrings(b, maxEmoji)
		default:
			b, err = msgp.Skip(b)
		}
		if err != nil {
			return Label{}, err
		}
	}
	if version != labelFormat {
		return Label{}, errFormat
	}
	l.Caption, l.Reaction = clean(l.Caption, maxCaption), clean(l.Reaction, maxReaction)
	return l, nil
}

func readStrings(b []byte, most int) ([]string, []byte, error) {
	n, b, err := msgp.ReadArrayHeaderBytes(b)
	if err != nil {
		return nil, b, err
	}
	out := make([]string, 0, min(int(n), most))
	for i := uint32(0); i < n; i++ {
		var s string
		if s, b, err = msgp.ReadStringBytes(b); err != nil {
			return nil, b, err
		}
		if len(out) < most {
			out = append(out, s)
		}
	}
	return out, b, nil
}
