package reconcile

import "github.com/stateflow/stateflow/engine/informer"

// Base is what every component embeds for the methods that are alike in
// all of them: Name, Host, Watches and Cache. A component's Clone copies
// its Base with CloneBase and its own state itself.
type Base struct {
	// A component is never compared: this keeps the compiler from making
	// an equality function for each type that embeds Base.
	_          [0]func()
	name, host string
	// Informer is the component's informer cache: what it has seen of the
	// kinds it watches, as of the watch events delivered so far.
	Informer *informer.Cache
}

// NewBase is the base of the component called name, running on node host
// ("" for a cluster-wide controller), which sees the world through cache.
func NewBase(name, host string, cache *informer.Cache) Base {
	return Base{name: name, host: host, Informer: cache}
}

// Name implements Component.
func (b *Base) Name() string { return b.name }

// Host implements Component.
func (b *Base) Host() string { return b.host }

// Watches implements Component: the kinds its informer caches.
func (b *Base) Watches() []string { return b.Informer.Watches() }

// Cache implements Component.
func (b *Base) Cache() *informer.Cache { return b.Informer }

// CloneBase is a copy of the base with an independent cache (O(1): see
// informer.Cache.Clone), for a component's Clone.
func (b *Base) CloneBase() Base {
	c := *b
	c.Informer = b.Informer.Clone()
	return c
}
