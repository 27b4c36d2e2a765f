// Package emojistoretest holds the image store the tests of the packages
// around service/emojistore share: objects in memory, with switches that
// make the store fail as R2 does when it cannot be reached.
package emojistoretest

import (
	"context"
	"errors"
	"sort"
	"sync"
)

// ErrDown is what a failing store answers.
var ErrDown = errors.New("emojistoretest: image store down")

// Objects is an in-memory image store (emojistore.Objects and
// customhost.Images). Set Fail to make every call fail.
type Objects struct {
	mu   sync.Mutex
	objs map[string][]byte
	fail bool
}

// SetFail makes every later call fail (true) or work again (false).
func (o *Objects) SetFail(fail bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.fail = fail
}

// Put stores an object.
func (o *Objects) Put(_ context.Context, key string, body []byte, _ string, _ map[string]string) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.fail {
		return ErrDown
	}
	if o.objs == nil {
		o.objs = map[string][]byte{}
	}
	o.objs[key] = append([]byte(nil), body...)
	return nil
}

// Delete removes keys; missing ones are no error.
func (o *Objects) Delete(_ context.Context, keys []string) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.fail {
		return ErrDown
	}
	for _, k := range keys {
		delete(o.objs, k)
	}
	return nil
}

// Get reads an object.
func (o *Objects) Get(_ context.Context, key string) ([]byte, bool, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.fail {
		return nil, false, ErrDown
	}
	b, ok := o.objs[key]
	return b, ok, nil
}

// Remove drops an object behind the store's back (a lost object).
func (o *Objects) Remove(key string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	delete(o.objs, key)
}

// Keys lists the stored keys in order.
func (o *Objects) Keys() []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	out := make([]string, 0, len(o.objs))
	for k := range o.objs {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
