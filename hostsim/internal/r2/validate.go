package r2

import (
	"bytes"
	"fmt"
	"unicode/utf16"

	"github.com/emojisearch/emojisearch/hostsim/internal/filestore"
)

// validateKey is R2's object-name check (miniflare Validator.key).
func validateKey(action, key string) error {
	if len(key) > MaxKeySize {
		return errInvalidObjectName(action)
	}
	return nil
}

// validatePutOptions is what workerd checks before sending a put.
func validatePutOptions(opts PutOptions) error {
	if opts.MD5 != nil && len(opts.MD5) != 16 {
		return runtimeError(jsTypeError, msgMD5Length, len(opts.MD5))
	}
	return nil
}

// validatePut is R2's own check of a put, in miniflare's order: key, size,
// custom metadata, checksum. md5 is the body's digest.
func validatePut(key string, size int64, opts PutOptions, md5 []byte) error {
	if err := validateKey("put", key); err != nil {
		return err
	}
	if size > MaxValueSize {
		return serviceError("put", 400, CodeEntityTooLarge, msgEntityTooLarge)
	}
	if metadataSize(opts.CustomMetadata) > MaxMetadataSize {
		return serviceError("put", 400, CodeMetadataTooLarge, msgMetadataTooLarge)
	}
	if opts.MD5 != nil && !bytes.Equal(opts.MD5, md5) {
		return serviceError("put", 400, CodeBadDigest, fmt.Sprintf(msgBadDigest, opts.MD5, md5))
	}
	return nil
}

// metadataSize counts customMetadata as R2's gateway does: each key and
// value by its JS string length (UTF-16 code units), doubled when any code
// unit is 256 or above.
func metadataSize(m map[string]string) int {
	n := 0
	for k, v := range m {
		n += serialisedLength(k) + serialisedLength(v)
	}
	return n
}

func serialisedLength(s string) int {
	units := utf16.Encode([]rune(s))
	for _, u := range units {
		if u >= 256 {
			return 2 * len(units)
		}
	}
	return len(units)
}

// validateListOptions checks include values (workerd, RangeError) and the
// limit (R2), and returns the page size to use.
func validateListOptions(opts ListOptions) (int, error) {
	for _, inc := range opts.Include {
		if inc != IncludeHTTPMetadata && inc != IncludeCustomMetadata {
			return 0, runtimeError(jsRangeError, msgUnsupportedInclude, inc)
		}
	}
	limit := opts.Limit
	if limit == 0 {
		limit = MaxListKeys
	}
	if limit < 1 || limit > MaxListKeys {
		return 0, serviceError("list", 400, CodeInvalidMaxKeys, msgInvalidMaxKeys)
	}
	if len(opts.Include) > 0 {
		limit = min(limit, MaxListKeysWithInclude)
	}
	return limit, nil
}

// validateRangeOptions is workerd's check of a range object before a get.
func validateRangeOptions(r *Range) error {
	if r == nil {
		return nil
	}
	if r.Offset != nil && *r.Offset < 0 {
		return runtimeError(jsRangeError, msgOffsetNegative, *r.Offset)
	}
	if r.Length != nil && *r.Length < 0 {
		return runtimeError(jsRangeError, msgLengthNegative, *r.Length)
	}
	if r.Suffix != nil {
		if r.Offset != nil {
			return runtimeError(jsTypeError, msgSuffixWithOffset)
		}
		if r.Length != nil {
			return runtimeError(jsTypeError, msgSuffixWithLength)
		}
		if *r.Suffix < 0 {
			return runtimeError(jsRangeError, msgSuffixNegative, *r.Suffix)
		}
	}
	return nil
}

// resolveRange turns a get's range options into the bytes to serve, as
// miniflare's Validator.range does; ok is false for the whole object.
func resolveRange(opts GetOptions, size int64) (r filestore.ByteRange, ok bool, err error) {
	if opts.RangeHeader != "" {
		ranges, _ := filestore.ParseRanges(opts.RangeHeader, size)
		if len(ranges) == 1 {
			return ranges[0], true, nil
		}
		return filestore.ByteRange{}, false, nil
	}
	if opts.Range == nil {
		return filestore.ByteRange{}, false, nil
	}
	offset, length := int64(0), size
	if s := opts.Range.Suffix; s != nil {
		if *s <= 0 {
			return filestore.ByteRange{}, false, errInvalidRange()
		}
		length = min(*s, size)
		offset = size - length
	} else {
		if opts.Range.Offset != nil {
			offset = *opts.Range.Offset
		}
		length = size - offset
		if opts.Range.Length != nil {
			length = *opts.Range.Length
		}
	}
	if offset < 0 || offset > size || length <= 0 {
		return filestore.ByteRange{}, false, errInvalidRange()
	}
	length = min(length, size-offset)
	return filestore.ByteRange{Start: offset, End: offset + length - 1}, true, nil
}
