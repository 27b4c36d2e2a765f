package webapi

import (
	"github.com/emojisearch/emojisearch/hostsim/internal/jsrt"
)

// Body is the buffered body of a Request or Response. A body given as a
// ReadableStream stays a stream until someone reads it.
type Body struct {
	bytes  []byte
	stream *jsrt.Object // set when built from a JS stream or exposed as .body
	null   bool
	used   bool
}

// Stream is the Go state of a ReadableStream: queued chunks plus an
// optional pull callback from a JS underlying source.
type Stream struct {
	chunks  [][]byte
	closed  bool
	err     jsrt.Value
	pull    jsrt.Value
	cancel  jsrt.Value
	ctrl    *jsrt.Object
	waiters []func()
	locked  bool
}

func (w *Web) installStreams() {
	rt := w.rt
	w.streamProto = rt.NewHostObject(nil, "ReadableStream", nil)
	ctrlProto := rt.NewHostObject(nil, "ReadableStreamDefaultController", nil)
	stateOf := func(this jsrt.Value) *Stream {
		if o, ok := this.(*jsrt.Object); ok {
			if s, ok := o.Internal.(*Stream); ok {
				return s
			}
		}
		return nil
	}
	wake := func(s *Stream) {
		ws := s.waiters
		s.waiters = nil
		for _, fn := range ws {
			fn()
		}
	}
	rt.Method(ctrlProto, "enqueue", func(this jsrt.Value, args []jsrt.Value) (jsrt.Value, error) {
		s := stateOf(this)
		chunk, ok := jsrt.Arg(args, 0).(*jsrt.Object)
		if s == nil || !ok || chunk.Bytes() == nil {
			return nil, rt.ThrowTypeError("enqueue expects a Uint8Array chunk")
		}
		s.chunks = append(s.chunks, append([]byte(nil), chunk.Bytes()...))
		wake(s)
		return jsrt.Undefined, nil
	})
	rt.Method(ctrlProto, "close", func(this jsrt.Value, _ []jsrt.Value) (jsrt.Value, error) {
		if s := stateOf(this); s != nil {
			s.closed = true
			wake(s)
		}
		return jsrt.Undefined, nil
	})
	rt.Method(ctrlProto, "error", func(this jsrt.Value, args []jsrt.Value) (jsrt.Value, error) {
		if s := stateOf(this); s != nil {
			s.err = jsrt.Arg(args, 0)
			wake(s)
		}
		return jsrt.Undefined, nil
	})
	w.streamCtor = rt.NewClass("ReadableStream", w.streamProto, func(args []jsrt.Value) (jsrt.Value, error) {
		s := &Stream{}
		stream := rt.NewHostObject(w.streamProto, "ReadableStream", s)
		s.ctrl = rt.NewHostObject(ctrlProto, "ReadableStreamDefaultController", s)
		if src, ok := jsrt.Arg(args, 0).(*jsrt.Object); ok {
			s.pull = src.MustGet("pull")
			s.cancel = src.MustGet("cancel")
			if start := src.MustGet("start"); !jsrt.IsUndefined(start) {
				if _, err := rt.Call(start, src, s.ctrl); err != nil {
					return nil, err
				}
			}
		}
		return stream, nil
	})
	rt.Method(w.streamProto, "getReader", func(this jsrt.Value, _ []jsrt.Value) (jsrt.Value, error) {
		s := stateOf(this)
		if s == nil {
			return nil, rt.ThrowTypeError("Illegal invocation")
		}
		if s.locked {
			return nil, rt.ThrowTypeError("ReadableStream is locked to a reader")
		}
		s.locked = true
		return w.newReader(s), nil
	})
	rt.Global.Define("ReadableStream", w.streamCtor)
}

func (w *Web) newReader(s *Stream) *jsrt.Object {
	rt := w.rt
	reader := rt.NewHostObject(nil, "ReadableStreamDefaultReader", s)
	rt.Method(reader, "read", func(jsrt.Value, []jsrt.Value) (jsrt.Value, error) {
		p, resolve, reject := rt.NewPromise()
		w.readChunk(s, func(chunk []byte, done bool, err jsrt.Value) {
			if err != nil {
				reject(err)
				return
			}
			res := rt.NewObject()
			res.Define("done", done)
			if done {
				res.Define("value", jsrt.Undefined)
			} else {
				res.Define("value", rt.NewBytes(chunk))
			}
			resolve(res)
		})
		return p, nil
	})
	rt.Method(reader, "cancel", func(jsrt.Value, []jsrt.Value) (jsrt.Value, error) {
		s.chunks, s.closed = nil, true
		if !jsrt.IsUndefined(s.cancel) {
			_, _ = rt.Call(s.cancel, jsrt.Undefined)
		}
		return rt.Resolved(jsrt.Undefined), nil
	})
	rt.Method(reader, "releaseLock", func(jsrt.Value, []jsrt.Value) (jsrt.Value, error) {
		s.locked = false
		return jsrt.Undefined, nil
	})
	return reader
}

// readChunk delivers the next chunk, pulling from the JS source when the
// queue is empty.
func (w *Web) readChunk(s *Stream, deliver func(chunk []byte, done bool, err jsrt.Value)) {
	switch {
	case s.err != nil:
		deliver(nil, false, s.err)
	case len(s.chunks) > 0:
		c := s.chunks[0]
		s.chunks = s.chunks[1:]
		deliver(c, false, nil)
	case s.closed:
		deliver(nil, true, nil)
	default:
		s.waiters = append(s.waiters, func() { w.readChunk(s, deliver) })
		if !jsrt.IsUndefined(s.pull) {
			res, err := w.rt.Call(s.pull, jsrt.Undefined, s.ctrl)
			if err != nil {
				s.err = w.rt.ThrowValue(err)
			} else if jsrt.IsPromise(res) {
				w.rt.Await(res, func(jsrt.Value) {}, func(e jsrt.Value) { s.err = e })
			}
		}
	}
}

// streamOf returns a ReadableStream that yields b in one chunk.
func (w *Web) streamOf(b []byte) *jsrt.Object {
	s := &Stream{chunks: [][]byte{b}, closed: true}
	if len(b) == 0 {
		s.chunks = nil
	}
	return w.rt.NewHostObject(w.streamProto, "ReadableStream", s)
}

// bodyFrom converts a BodyInit (string, Uint8Array, ArrayBuffer,
// ReadableStream, null) into a Body.
func (w *Web) bodyFrom(v jsrt.Value) (*Body, error) {
	switch x := v.(type) {
	case nil:
		return &Body{null: true}, nil
	case string:
		return &Body{bytes: []byte(x)}, nil
	case *jsrt.Object:
		if b := x.Bytes(); b != nil {
			return &Body{bytes: append([]byte(nil), b...)}, nil
		}
		if _, ok := x.Internal.(*Stream); ok {
			return &Body{stream: x}, nil
		}
		return &Body{bytes: []byte(jsrt.ToString(x))}, nil
	}
	if jsrt.IsNullish(v) {
		return &Body{null: true}, nil
	}
	return &Body{bytes: []byte(jsrt.ToString(v))}, nil
}

// ReadAll collects a body's bytes, then calls done on the loop.
func (w *Web) ReadAll(b *Body, done func([]byte, error)) {
	if b.used {
		done(nil, w.rt.ThrowTypeError("Body has already been used. It can only be used once. Use tee() first if you need to read it twice."))
		return
	}
	b.used = true
	if b.stream == nil {
		done(b.bytes, nil)
		return
	}
	s := b.stream.Internal.(*Stream)
	var buf []byte
	var step func()
	step = func() {
		w.readChunk(s, func(chunk []byte, finished bool, err jsrt.Value) {
			switch {
			case err != nil:
				done(nil, &jsrt.Throw{Value: err})
			case finished:
				done(buf, nil)
			default:
				buf = append(buf, chunk...)
				step()
			}
		})
	}
	step()
}

// bodyMethods adds arrayBuffer/text/json/bytes and body/bodyUsed to a
// Request or Response prototype.
func (w *Web) bodyMethods(proto *jsrt.Object, bodyOf func(this jsrt.Value) (*Body, error)) {
	rt := w.rt
	read := func(name string, convert func([]byte) (jsrt.Value, error)) {
		rt.Method(proto, name, func(this jsrt.Value, _ []jsrt.Value) (jsrt.Value, error) {
			b, err := bodyOf(this)
			if err != nil {
				return nil, err
			}
			p, resolve, reject := rt.NewPromise()
			w.ReadAll(b, func(data []byte, err error) {
				if err != nil {
					reject(rt.ThrowValue(err))
					return
				}
				v, err := convert(data)
				if err != nil {
					reject(rt.ThrowValue(err))
					return
				}
				resolve(v)
			})
			return p, nil
		})
	}
	read("arrayBuffer", func(b []byte) (jsrt.Value, error) { return rt.NewArrayBuffer(append([]byte{}, b...)), nil })
	read("bytes", func(b []byte) (jsrt.Value, error) { return rt.NewBytes(append([]byte{}, b...)), nil })
	read("text", func(b []byte) (jsrt.Value, error) { return string(b), nil })
	read("json", func(b []byte) (jsrt.Value, error) { return rt.ParseJSON(string(b)) })
	proto.Define("body", &jsrt.Accessor{Get: func(this jsrt.Value) (jsrt.Value, error) {
		b, err := bodyOf(this)
		if err != nil {
			return nil, err
		}
		if b.null {
			return jsrt.Null, nil
		}
		if b.stream == nil {
			b.stream = w.streamOf(b.bytes)
		}
		return b.stream, nil
	}})
	proto.Define("bodyUsed", &jsrt.Accessor{Get: func(this jsrt.Value) (jsrt.Value, error) {
		b, err := bodyOf(this)
		if err != nil {
			return nil, err
		}
		return b.used, nil
	}})
}

// ReadValue reads a BodyInit value (string, bytes, ArrayBuffer or
// ReadableStream) whole and calls done on the loop.
func (w *Web) ReadValue(v jsrt.Value, done func([]byte, error)) {
	b, err := w.bodyFrom(v)
	if err != nil {
		done(nil, err)
		return
	}
	w.ReadAll(b, done)
}

// AttachBody gives a host object the body members of a Response (body,
// bodyUsed, arrayBuffer, text, json, bytes): how R2ObjectBody reads.
func (w *Web) AttachBody(obj *jsrt.Object, data []byte) {
	b := &Body{bytes: data}
	w.bodyMethods(obj, func(jsrt.Value) (*Body, error) { return b, nil })
}
