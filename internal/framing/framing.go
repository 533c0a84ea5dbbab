// Package framing says who may frame the site: any origin, so the embed
// mode (?embed=1) works in the documentation and blog posts of others.
// stateflow serve sends it with every response, stateflow build writes
// it to the static site's _headers file, and the browser tests serve the
// built site with it.
package framing

import "net/http"

// FrameAncestors is the Content-Security-Policy the site is served with
// besides its page's own (a <meta> policy cannot say frame-ancestors). It
// restricts nothing else.
const FrameAncestors = "frame-ancestors *"

// HeadersFile is the static site's _headers file (the format Netlify and
// Cloudflare Pages read) that serves every path with FrameAncestors.
const HeadersFile = "/*\n  Content-Security-Policy: " + FrameAncestors + "\n"

// Framable serves h with FrameAncestors.
func Framable(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Security-Policy", FrameAncestors)
		h.ServeHTTP(w, r)
	})
}
