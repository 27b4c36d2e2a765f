package emojistore

import (
	"errors"
	"io"
	"mime"
	"net/http"
	"unicode/utf8"

	"github.com/emojisearch/emojisearch/service/imageintake"
)

// maxField bounds a text field of the upload form (shortcode, aliases,
// tenantId): 20 aliases of 64 characters fit many times over.
const maxField = 8 << 10

// maxForm bounds the whole multipart body: the image plus the text fields
// and part headers. Past it the answer is image_too_large.
const maxForm = imageintake.MaxBytes + 64<<10

// Upload is a parsed upload form.
type Upload struct {
	File     []byte
	FileType string            // the part's declared Content-Type (recorded, never trusted)
	Fields   map[string]string // shortcode, aliases, tenantId (present only when sent)
}

// UploadError is a refused upload form. Code is the tenants API's code
// (unsupported_media_type, invalid_multipart, image_too_large,
// invalid_request); routes with another shape map it.
type UploadError struct {
	Status  int
	Code    string
	Field   string
	Message string
}

func (e *UploadError) Error() string { return "emojistore: upload: " + e.Message }

// ReadUpload reads a multipart/form-data upload with one `file` part and
// the text fields named in fields. It refuses: another content type or a
// missing boundary (415 unsupported_media_type), a body past the image
// limit plus room for the fields (413 image_too_large), a malformed or
// truncated body, two `file` parts or a repeated field (400), a text field
// over 8 KB or not UTF-8 (400 invalid_request with the field). Parts with
// other names are ignored. The body is read whole (at most 320 KB) and
// split by parseForm.
func ReadUpload(w http.ResponseWriter, r *http.Request, fields ...string) (Upload, *UploadError) {
	mt, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/form-data" {
		return Upload{}, &UploadError{http.StatusUnsupportedMediaType, "unsupported_media_type", "",
			"Send the upload as multipart/form-data."}
	}
	if params["boundary"] == "" {
		return Upload{}, &UploadError{http.StatusUnsupportedMediaType, "unsupported_media_type", "",
			"The multipart/form-data Content-Type needs a boundary."}
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxForm))
	if err != nil {
		return Upload{}, formError(err)
	}
	parts, err := parseForm(body, params["boundary"])
	if err != nil {
		return Upload{}, formError(err)
	}
	up := Upload{Fields: map[string]string{}}
	seenFile := false
	for _, part := range parts {
		switch name := part.name; {
		case name == "file":
			if seenFile {
				return Upload{}, &UploadError{http.StatusBadRequest, "invalid_request", "file", "Send one file per upload."}
			}
			seenFile = true
			if len(part.body) > imageintake.MaxBytes {
				return Upload{}, &UploadError{http.StatusRequestEntityTooLarge, "image_too_large", "file", "The image is over 256 KB."}
			}
			up.File, up.FileType = part.body, part.contentType
		case contains(fields, name):
			if _, dup := up.Fields[name]; dup {
				return Upload{}, &UploadError{http.StatusBadRequest, "invalid_request", name, "Send " + name + " once."}
			}
			if len(part.body) > maxField || !utf8.Valid(part.body) {
				return Upload{}, &UploadError{http.StatusBadRequest, "invalid_request", name, name + " must be UTF-8 text of at most 8 KB."}
			}
			up.Fields[name] = string(part.body)
		}
	}
	if !seenFile {
		return Upload{}, &UploadError{http.StatusBadRequest, "invalid_request", "file", "Send the image as the file field."}
	}
	return up, nil
}

// formError maps a read failure: past the size bound it is the image's
// size, else the body is malformed.
func formError(err error) *UploadError {
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		return &UploadError{http.StatusRequestEntityTooLarge, "image_too_large", "file", "The upload is over 256 KB."}
	}
	return &UploadError{http.StatusBadRequest, "invalid_multipart", "", "The multipart body is malformed or truncated."}
}
