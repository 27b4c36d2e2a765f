package access

import (
	"container/list"
	"sync"
	"time"
)

// lru is a bounded map of key lookups that expire after ttl. The mutex is
// held only for map work, never across a store call.
type lru struct {
	mu    sync.Mutex
	ttl   time.Duration
	cap   int
	order *list.List // front = most recently used
	items map[string]*list.Element
}

type lruEntry struct {
	hash string
	rec  KeyRecord
	at   time.Time
}

func newLRU(capacity int, ttl time.Duration) *lru {
	return &lru{ttl: ttl, cap: capacity, order: list.New(), items: make(map[string]*list.Element)}
}

// get returns the entry for hash if it is at most ttl old; an older one is
// dropped.
func (c *lru) get(hash string, now time.Time) (KeyRecord, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.items[hash]
	if !ok {
		return KeyRecord{}, false
	}
	e := el.Value.(*lruEntry)
	if age := now.Sub(e.at); age > c.ttl || age < 0 {
		c.order.Remove(el)
		delete(c.items, hash)
		return KeyRecord{}, false
	}
	c.order.MoveToFront(el)
	return e.rec, true
}

func (c *lru) put(hash string, rec KeyRecord, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.items[hash]; ok {
		el.Value = &lruEntry{hash: hash, rec: rec, at: now}
		c.order.MoveToFront(el)
		return
	}
	c.items[hash] = c.order.PushFront(&lruEntry{hash: hash, rec: rec, at: now})
	for c.order.Len() > c.cap {
		old := c.order.Back()
		c.order.Remove(old)
		delete(c.items, old.Value.(*lruEntry).hash)
	}
}

func (c *lru) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len()
}
