package hostsim

import (
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"runtime/debug"
	"time"
)

// Request bodies are read before the Worker runs (the entry protocol is
// buffered), with the limits the Workers platform puts on a request:
//
//   - at most maxRequestBody bytes (Free and Pro plans): a larger
//     Content-Length is refused at once, before a byte is read, and a
//     chunked body that grows past it is cut off: 413;
//   - a body that stops arriving for bodyIdleTimeout is given up: 408, and
//     the connection is closed (it held a read with no deadline before);
//   - a malformed body (a broken chunked encoding) is a 400, as the
//     platform answers it; before, the Worker never ran and the client got
//     an empty 200;
//   - at most largeBodies bodies over largeBody bytes are held at once; a
//     third waits for a slot. Ten parallel 90 MB posts held every body
//     in memory together and left hostsim at 1.8 GB (issue 31); after a
//     large body the heap is returned to the system.
const (
	maxRequestBody  = 100 << 20
	bodyIdleTimeout = 10 * time.Second
	largeBody       = 1 << 20
	largeBodies     = 2
)

// errBodyTimeout reports a body that stopped arriving.
var errBodyTimeout = errors.New("hostsim: request body stalled")

// bodyError is a body that could not be read, with the status to answer.
type bodyError struct {
	status int
	err    error
}

func (e *bodyError) Error() string { return e.err.Error() }

// readBody reads r's body within the limits above. release must be called
// once the Worker has answered: it frees the large-body slot, if taken.
func (s *Simulator) readBody(w http.ResponseWriter, r *http.Request) (body []byte, release func(), err error) {
	release = func() {}
	if r.ContentLength > maxRequestBody {
		return nil, release, &bodyError{http.StatusRequestEntityTooLarge, errors.New("the body is over 100 MB")}
	}
	rc := http.NewResponseController(w)
	in := &idleReader{r: http.MaxBytesReader(w, r.Body, maxRequestBody), rc: rc}
	defer func() { _ = rc.SetReadDeadline(time.Time{}) }()
	if r.ContentLength > largeBody {
		if release, err = s.takeLargeSlot(r.Context()); err != nil {
			return nil, func() {}, &bodyError{499, err}
		}
	}
	first, err := io.ReadAll(io.LimitReader(in, largeBody+1))
	if err == nil && len(first) > largeBody && r.ContentLength <= largeBody {
		// A chunked (or understated) body turned out large.
		if release, err = s.takeLargeSlot(r.Context()); err != nil {
			return nil, func() {}, &bodyError{499, err}
		}
	}
	if err == nil && len(first) > largeBody {
		var rest []byte
		rest, err = io.ReadAll(in)
		first = append(first, rest...)
	}
	if err != nil {
		release()
		return nil, func() {}, classifyBodyError(err)
	}
	return first, release, nil
}

// takeLargeSlot waits for one of the largeBodies slots; its release
// returns the heap to the system as well.
func (s *Simulator) takeLargeSlot(ctx context.Context) (func(), error) {
	select {
	case s.largeSlots <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return func() {
		<-s.largeSlots
		go debug.FreeOSMemory()
	}, nil
}

func classifyBodyError(err error) *bodyError {
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		return &bodyError{http.StatusRequestEntityTooLarge, err}
	case errors.Is(err, errBodyTimeout):
		return &bodyError{http.StatusRequestTimeout, err}
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, context.Canceled):
		return &bodyError{499, err} // the client went away mid-body
	}
	return &bodyError{http.StatusBadRequest, err}
}

// idleReader gives every read bodyIdleTimeout to bring bytes.
type idleReader struct {
	r  io.Reader
	rc *http.ResponseController
}

func (ir *idleReader) Read(p []byte) (int, error) {
	_ = ir.rc.SetReadDeadline(time.Now().Add(bodyIdleTimeout))
	n, err := ir.r.Read(p)
	if errors.Is(err, os.ErrDeadlineExceeded) {
		err = errBodyTimeout
	}
	return n, err
}
