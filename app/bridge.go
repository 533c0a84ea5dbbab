package app

import "github.com/stateflow/stateflow/engine/timezone"

// bridge is the JavaScript the playground needs beyond go-app: storage,
// the URL fragment, the clipboard and keyboard shortcuts.
type bridge interface {
	StorageGet(key string) (string, bool, error)
	StorageSet(key, value string) error
	Fragment() string
	Href() string
	ReplaceFragment(fragment string) error
	CopyText(text string) error
	OnKey(f func(key string) bool) (remove func(), err error)
	FocusLine(id string, line int)
	// ScrollIntoView scrolls the first element a CSS selector matches
	// into view, within its scrolling pane.
	ScrollIntoView(selector string)
	// ScrollToEnd scrolls the element a CSS selector matches to its end.
	ScrollToEnd(selector string)
	// DragToScroll lets a mouse drag pan the scrolling element a selector
	// matches (touch pans it natively); remove undoes it.
	DragToScroll(selector string) (remove func())
	// ObserveSize calls f with the size of the content box of the first
	// element a selector matches, in CSS pixels, now and whenever it
	// changes (a hidden element's 0×0 is not reported); remove stops it.
	ObserveSize(selector string, f func(w, h int)) (remove func())
	// MarkOverflow keeps the data-overflow attribute of the element a
	// selector matches "true" while its content is taller than its box
	// (a clamped caption), "false" otherwise; remove stops it.
	MarkOverflow(selector string) (remove func())
	// TellHeight tells the page that frames this one (postMessage of
	// {type: "stateflow:resize", height}) the height this page would
	// need for the element a selector matches to be want px tall, the
	// rest of the page as it is, capped at ceiling; it tells only a
	// height above floor. It returns the height told, 0 when none was
	// (nothing frames the page, or the height is not above floor).
	TellHeight(selector string, want, floor, ceiling int) int
	// Yield gives the browser a turn of its event loop (input, painting)
	// and returns when that turn is over. Call it off the UI goroutine.
	Yield()
	// Paint returns once the browser has painted the page as it is now
	// (at most about 100 ms later: a hidden tab paints nothing), so that
	// work that follows cannot hide a "working" state. Call it off the UI
	// goroutine.
	Paint()
	// TimeZones loads the zones the scenarios name (in the browser, from
	// web/zoneinfo.zip, downloaded when first needed).
	TimeZones() timezone.Loader
}
