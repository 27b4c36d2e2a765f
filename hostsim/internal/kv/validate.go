package kv

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Error is a KV call that Cloudflare would refuse. Status is the HTTP status
// the KV service answers with (400, 413 or 414); Message is exactly the text
// JS code sees in err.message, so the JS adapter can throw it unchanged;
// TypeError says workerd throws a TypeError rather than an Error.
// Match it with errors.As.
type Error struct {
	Status    int
	Message   string
	TypeError bool
}

func (e *Error) Error() string { return "kv: " + e.Message }

// typeError is a check workerd makes itself before any request.
func typeError(msg string) *Error {
	return &Error{Status: statusBadRequest, Message: msg, TypeError: true}
}

// serviceError is a refusal from the KV service as workerd rethrows it.
func serviceError(method string, status int, format string, args ...any) *Error {
	msg := fmt.Sprintf(format, args...)
	return &Error{Status: status, Message: fmt.Sprintf(msgServiceFailed, method, status, msg)}
}

// validateKey applies workerd's key-name checks for a get, put or delete.
func validateKey(method, key string) error {
	switch key {
	case "":
		return typeError(msgEmptyKey)
	case ".", "..":
		return typeError(fmt.Sprintf(msgIllegalKey, key))
	}
	return validateKeyLength(method, key)
}

func validateKeyLength(method, key string) error {
	if len(key) > MaxKeySize {
		return serviceError(method, statusURITooLong, msgKeyTooLong, len(key), MaxKeySize)
	}
	return nil
}

// validatePut checks a put the way workerd and then miniflare do, in their
// order: key name, expiration, metadata, value size. It returns the absolute
// expiration in unix seconds (0: none) and the metadata to store (nil: none).
// now is the current unix time in seconds.
func validatePut(key string, value []byte, opts PutOptions, now int64) (int64, json.RawMessage, error) {
	if err := validateKey(methodPut, key); err != nil {
		return 0, nil, err
	}
	expiration, err := validateExpiration(opts, now)
	if err != nil {
		return 0, nil, err
	}
	metadata, err := normaliseMetadata(opts.Metadata)
	if err != nil {
		return 0, nil, err
	}
	if len(value) > MaxValueSize {
		return 0, nil, serviceError(methodPut, statusTooLarge, msgValueTooLarge, len(value), MaxValueSize)
	}
	return expiration, metadata, nil
}

// validateExpiration follows miniflare's validatePutOptions: a TTL wins over
// an absolute expiration when both are given.
func validateExpiration(opts PutOptions, now int64) (int64, error) {
	switch {
	case opts.ExpirationTTL != 0:
		ttl := opts.ExpirationTTL
		if ttl < 0 {
			return 0, serviceError(methodPut, statusBadRequest, msgTTLNotPositive, ttl)
		}
		if ttl < MinExpirationTTL {
			return 0, serviceError(methodPut, statusBadRequest, msgTTLTooShort, ttl, MinExpirationTTL)
		}
		return now + ttl, nil
	case opts.Expiration != 0:
		exp := opts.Expiration
		if exp <= now {
			return 0, serviceError(methodPut, statusBadRequest, msgExpirationPast, exp)
		}
		if exp < now+MinExpirationTTL {
			return 0, serviceError(methodPut, statusBadRequest, msgExpirationTooSoon, exp, MinExpirationTTL)
		}
		return exp, nil
	}
	return 0, nil
}

// normaliseMetadata compacts metadata to what JSON.stringify would send and
// checks its size. JSON null means no metadata, as in workerd.
func normaliseMetadata(raw json.RawMessage) (json.RawMessage, error) {
	if len(raw) == 0 {
		return nil, nil
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return nil, typeError(msgMetadataNotJSON)
	}
	if buf.String() == "null" {
		return nil, nil
	}
	if buf.Len() > MaxMetadataSize {
		return nil, serviceError(methodPut, statusTooLarge, msgMetadataTooLarge, buf.Len(), MaxMetadataSize)
	}
	return json.RawMessage(buf.Bytes()), nil
}

// validateList checks the limit, then the prefix, as miniflare does, and
// returns the effective limit. Like workerd, a limit of zero or less is not
// sent at all, so the service's default of 1000 applies.
func validateList(opts ListOptions) (int, error) {
	limit := opts.Limit
	switch {
	case limit <= 0:
		limit = MaxListKeys
	case limit > MaxListKeys:
		return 0, serviceError(methodGet, statusBadRequest, msgListLimitTooLarge, limit, MaxListKeys)
	}
	if err := validateKeyLength(methodGet, opts.Prefix); err != nil {
		return 0, err
	}
	return limit, nil
}
