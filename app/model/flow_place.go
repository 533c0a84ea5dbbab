package model

import (
	"fmt"
	"strings"

	"github.com/stateflow/stateflow/engine/api"
)

// Geometry of the diagram, in CSS pixels at Fit.
const (
	margin    = 6  // around the diagram
	gapX      = 12 // between the boxes of a row
	laneGap   = 24 // between lanes
	rowGap    = 26 // between rows: room for an arrow's label
	podGap    = 6  // between the pods of a grid
	bandGap   = 20 // between bands of lanes
	headerH   = 18 // the line "desired state ↓ · observed state ↑"
	eventsW   = 16 // the Events channel, right of the content
	eventsGap = 6  // between the content and the Events channel
)

// A group's marks, one per member: squares of MarkSize, MarkGap apart.
const (
	MarkSize = 7
	MarkGap  = 2
)

// density is one step of the ladder, from the most detail to the least:
// how large pods and nodes are drawn and what is folded.
type density struct {
	pods  podVariant
	nodes nodeVariant
	// group folds the pods of each owner, and the nodes, the story is not
	// about into a group box; fold draws each lane it is not about as
	// its first box alone. bare leaves out the line over the diagram;
	// tiny shortens a ReplicaSet's or Job's name to the end of its hash
	// and leaves a group box its marks alone.
	group, fold, bare, tiny bool
	// wrapping is how long the lines of boxes may be; fit tries each of
	// wrappings at each density.
	wrapping
}

// wrapping says how long the lines of boxes may be.
type wrapping struct {
	// wrapAt is the longest line a box that shares its row keeps (0: its
	// longest); a longer one wraps after a clause (or between words),
	// and a ReplicaSet's or Job's name drops its owner's part. wrapAll
	// wraps the boxes alone in their rows too (narrower lanes fit side
	// by side).
	wrapAt  int
	wrapAll bool
}

// ladder is tried in order, and at each density the wrappings: the
// first at which the diagram fits is drawn.
var ladder = []density{
	{pods: podFull, nodes: nodeFull},
	{pods: podCompact, nodes: nodeFull},
	{pods: podCompact, nodes: nodeCompact},
	{pods: podChip, nodes: nodeCompact},
	{pods: podChip, nodes: nodeCompact, group: true, bare: true},
	{pods: podChip, nodes: nodeCompact, group: true, fold: true, bare: true},
	{pods: podChip, nodes: nodeCompact, group: true, fold: true, bare: true, tiny: true},
}

// wrappings are tried in order at each density: lines as long as the
// pane allows, then shorter ones.
var wrappings = []wrapping{{}, {wrapAt: 26}, {wrapAt: 24, wrapAll: true}, {wrapAt: 20, wrapAll: true}, {wrapAt: 15, wrapAll: true}}

// block is a lane measured at a density: its boxes sized, not placed.
// A column (the Services, the folded lanes) is laid in rows as wide as
// the room its band leaves it.
type block struct {
	top    []*Box
	owners []*ownerBlock
	column []*Box
}

// ownerBlock is an owner's box over a grid of cells (its pods drawn one
// by one, all of one size) and a group box for the rest.
type ownerBlock struct {
	box          *Box
	cells        []*Box
	cellW, cellH int
	group        *Box
}

// grid is the owner's cells in rows of at most ceil(n/rows) columns:
// its columns, and the width and height of the grid with the group box.
func (ob *ownerBlock) grid(rows int) (cols, w, h int) {
	n := len(ob.cells)
	if n > 0 {
		cols = (n + rows - 1) / rows
		r := (n + cols - 1) / cols
		w, h = cols*ob.cellW+(cols-1)*podGap, r*ob.cellH+(r-1)*podGap
	}
	if g := ob.group; g != nil {
		w = max(w, g.W)
		if h > 0 {
			h += podGap
		}
		h += g.H
	}
	return cols, w, h
}

// width is the owner's width with rows of pods at most.
func (ob *ownerBlock) width(rows int) int {
	_, w, _ := ob.grid(rows)
	if ob.box != nil {
		w = max(w, ob.box.W)
	}
	return w
}

// piece is what a band holds: a block, or a part of a lane too wide for
// the room (split between its owners; the first part has the top row),
// or a column packed in rows.
type piece struct {
	top     []*Box
	owners  []*ownerBlock
	column  [][]*Box
	rows    int // of pods, at most
	w, colH int
	// topH, midH and podsH are the heights of its rows.
	topH, midH, podsH int
}

// newPiece measures a piece with rows of pods at most.
func newPiece(top []*Box, owners []*ownerBlock, column [][]*Box, rows int) *piece {
	p := &piece{top: top, owners: owners, column: column, rows: rows, w: rowWidth(top)}
	for _, t := range top {
		p.topH = max(p.topH, t.H)
	}
	ow := 0
	for i, ob := range owners {
		if i > 0 {
			ow += gapX
		}
		ow += ob.width(rows)
		if ob.box != nil {
			p.midH = max(p.midH, ob.box.H)
		}
		_, _, h := ob.grid(rows)
		p.podsH = max(p.podsH, h)
	}
	p.w = max(p.w, ow)
	for i, r := range column {
		if i > 0 {
			p.colH += podGap
		}
		p.w, p.colH = max(p.w, rowWidth(r)), p.colH+rowHeight(r)
	}
	return p
}

// pieces are a block laid for rows of pods at most, in a band with room
// left and a width of avail: a column flows into the room left (or a new
// band's), a lane wider than avail is split between its owners.
func (b *block) pieces(rows, left, avail int) []*piece {
	if len(b.top) == 0 && len(b.owners) == 0 {
		w := avail
		if widest := widestBox(b.column); left >= widest {
			w = left
		}
		return []*piece{newPiece(nil, nil, packRows(b.column, w), rows)}
	}
	whole := newPiece(b.top, b.owners, nil, rows)
	if whole.w <= avail || len(b.owners) < 2 {
		return []*piece{whole}
	}
	var out []*piece
	top, chunk, w := b.top, []*ownerBlock(nil), 0
	for _, ob := range b.owners {
		ow := ob.width(rows)
		if len(chunk) > 0 && w+gapX+ow > avail {
			out = append(out, newPiece(top, chunk, nil, rows))
			top, chunk, w = nil, nil, 0
		}
		if len(chunk) > 0 {
			w += gapX
		}
		chunk, w = append(chunk, ob), w+ow
	}
	return append(out, newPiece(top, chunk, nil, rows))
}

func widestBox(bs []*Box) int {
	w := 0
	for _, b := range bs {
		w = max(w, b.W)
	}
	return w
}

// rowWidth is the width of boxes side by side.
func rowWidth(bs []*Box) int {
	w := 0
	for i, b := range bs {
		if i > 0 {
			w += gapX
		}
		w += b.W
	}
	return w
}

// band is a row of pieces that share the diagram's rows.
type band struct {
	pieces                     []*piece
	w, topH, midH, podsH, colH int
}

// add puts a piece in the band.
func (bd *band) add(p *piece) {
	if len(bd.pieces) > 0 {
		bd.w += laneGap
	}
	bd.pieces = append(bd.pieces, p)
	bd.w += p.w
	bd.topH, bd.midH, bd.podsH, bd.colH = max(bd.topH, p.topH), max(bd.midH, p.midH), max(bd.podsH, p.podsH), max(bd.colH, p.colH)
}

// height is the band's height: its rows, each with the gap under it, or
// its tallest column (stacked from its top), whichever is taller.
func (bd *band) height() int {
	h := 0
	for _, r := range []int{bd.topH, bd.midH, bd.podsH} {
		if r > 0 {
			if h > 0 {
				h += rowGap
			}
			h += r
		}
	}
	return max(h, bd.colH)
}

// measured is a scene at one density: its blocks and nodes sized.
type measured struct {
	s        *scene
	d        density
	blocks   []*block
	nodes    []*Box
	maxCells int
	grouped  []string
	// room is the longest line a box alone in its row may keep: it wraps
	// only as far as it must to fit the viewport; avail is that width.
	room, avail int
}

// wrapFor is how long the lines of a box may be in a row of n boxes: the
// density's limit, or when it is alone, what the viewport's width allows.
func (ms *measured) wrapFor(n int) int {
	if n <= 1 && !ms.d.wrapAll || ms.d.wrapAt == 0 {
		return ms.room
	}
	return min(ms.d.wrapAt, ms.room)
}

// arrangement is a measured scene in bands for rows of pods at most.
type arrangement struct {
	rows          int
	bands         []*band
	nodeRows      [][]*Box
	contentW      int
	width, height int
	junction      string
	junctionY     int
	fits          bool
	scale         float64
	// tooWide says a piece is wider than the room even alone.
	tooWide bool
}

// headerH is the room of the line over the diagram (none when bare).
func (ms *measured) headerH() int {
	if ms.d.bare {
		return 0
	}
	return headerH
}

// junctionLabels say what the scheduler's line is, longest first: the
// first that fits is drawn.
var junctionLabels = []string{"scheduler: binds each pod to a node (spec.nodeName)", "scheduler: binds pods to nodes", "scheduler"}

// headerText is the line over the diagram.
const headerText = "desired state ↓ · observed state ↑"

// arrange packs the blocks into bands no wider than the room, with rows
// of pods at most, and says how large the diagram is.
func (ms *measured) arrange(rows int, room int) *arrangement {
	a := &arrangement{rows: rows}
	avail := contentRoom(room)
	var cur *band
	for _, b := range ms.blocks {
		left := 0
		if cur != nil {
			left = avail - cur.w - laneGap
		}
		for _, p := range b.pieces(rows, left, avail) {
			if p.w > avail {
				a.tooWide = true
			}
			if cur == nil || cur.w+laneGap+p.w > avail {
				cur = &band{}
				a.bands = append(a.bands, cur)
			}
			cur.add(p)
		}
	}
	a.nodeRows = packRows(ms.nodes, avail)
	a.contentW = 0
	if !ms.d.bare {
		a.contentW = TextPx(runes(headerText))
	}
	for _, bd := range a.bands {
		a.contentW = max(a.contentW, bd.w)
	}
	for _, r := range a.nodeRows {
		a.contentW = max(a.contentW, rowWidth(r))
	}
	a.junction = junctionLabels[len(junctionLabels)-1]
	for _, l := range junctionLabels {
		if TextPx(runes(l)) <= max(a.contentW, avail) {
			a.junction = l
			break
		}
	}
	a.contentW = max(a.contentW, TextPx(runes(a.junction)))
	a.width = 2*margin + a.contentW + eventsGap + eventsW
	h := margin + ms.headerH()
	for i, bd := range a.bands {
		if i > 0 {
			h += bandGap
		}
		h += bd.height()
	}
	a.junctionY = h
	h += junctionH
	for i, r := range a.nodeRows {
		if i > 0 {
			h += podGap
		}
		h += rowHeight(r)
	}
	a.height = h + margin
	return a
}

// contentRoom is the width the diagram's boxes have in a viewport w
// wide: all of it but the margins and the Events channel.
func contentRoom(w int) int { return w - 2*margin - eventsGap - eventsW }

// junctionH is the room between the pods and the nodes: the scheduler's
// label and line, and under it room for a bind arrow's label.
const junctionH = 20 + 28

// packRows puts boxes side by side in rows no wider than avail.
func packRows(bs []*Box, avail int) [][]*Box {
	var rows [][]*Box
	w := 0
	for _, b := range bs {
		if len(rows) == 0 || w+gapX+b.W > avail {
			rows = append(rows, []*Box{b})
			w = b.W
			continue
		}
		rows[len(rows)-1] = append(rows[len(rows)-1], b)
		w += gapX + b.W
	}
	return rows
}

func rowHeight(bs []*Box) int {
	h := 0
	for _, b := range bs {
		h = max(h, b.H)
	}
	return h
}

// size sets a box's width and height for its title and lines, wrapping
// lines longer than wrapAt characters (0: none). Every box keeps room
// for two badges right of its title (an effect's symbol, a stale
// cache's ◔), so its size does not change from tick to tick. A group's
// marks take a row under its lines, as many as its width holds.
func size(b *Box, wrapAt int) *Box {
	if wrapAt > 0 {
		b.Lines = wrap(b.Lines, max(wrapAt, longestWord(b.Lines)))
	}
	n := longest(b.Lines)
	b.W = max(TextWidth(n), TextWidth(runes(b.Title))+2*BadgeW)
	b.H = BoxHeight(1 + len(b.Lines))
	if len(b.Spark) > 0 {
		b.H += SparkH
	}
	if len(b.Marks) > 0 {
		b.H += MarkSize + 4
		b.Marks = b.Marks[:min(len(b.Marks), (b.W-2*TextPad+MarkGap)/(MarkSize+MarkGap))]
	}
	return b
}

// shortTitle drops the owner's part from a ReplicaSet's or Job's name:
// "rs/…-5fd6c9f75c", or (tiny) all but the end of it: "rs/…9f75c". Its
// owner's box, over it, says the rest; its accessible name says all.
func shortTitle(b *Box, tiny bool) {
	if b.Kind != api.KindReplicaSet && b.Kind != api.KindJob {
		return
	}
	prefix, name, _ := strings.Cut(b.Title, "/")
	i := strings.LastIndex(name, "-")
	if i <= 0 {
		return
	}
	if b.Detail == "" {
		b.Detail = b.Title + " — " + strings.Join(b.Lines, " — ")
	}
	end := name[i:]
	if r := []rune(end); tiny && len(r) > 6 {
		end = string(r[len(r)-5:])
	}
	b.Title = prefix + "/…" + end
}

// copyBox is a box to size and place: the scene's boxes are measured
// at several densities.
func copyBox(b *Box) *Box {
	c := *b
	c.Lines = append([]string(nil), b.Lines...)
	return &c
}

// measure sizes the scene at a density for a viewport w wide.
func (s *scene) measure(d density, w int) *measured {
	ms := &measured{s: s, d: d, room: CharsIn(contentRoom(w)), avail: contentRoom(w)}
	var folded []*Box
	for _, ln := range s.lanes {
		if d.fold && !ln.focus {
			if b := ln.firstBox(); b != nil {
				folded = append(folded, s.foldedBox(ln, b, ms))
			}
			for _, c := range ln.column {
				folded = append(folded, s.foldedBox(ln, c, ms))
			}
			continue
		}
		ms.blocks = append(ms.blocks, s.measureLane(ln, d, ms))
	}
	if len(folded) > 0 {
		ms.blocks = append([]*block{{column: folded}}, ms.blocks...)
		ms.grouped = append(ms.grouped, fmt.Sprintf("%d workloads this step is not about are folded to one box each (click one to inspect it and open it)", len(folded)))
	}
	ms.nodes = s.measureNodes(d, ms)
	return ms
}

// measureLane sizes a lane's boxes. Each row of boxes (the top row, the
// owners) is narrowed to its budget by fitRow.
func (s *scene) measureLane(ln *lane, d density, ms *measured) *block {
	b := &block{}
	for _, c := range ln.column {
		b.column = append(b.column, size(copyBox(c), ms.wrapFor(2)))
	}
	owners, idle := ln.owners, []*owner(nil)
	if d.group {
		owners, idle = s.splitIdle(ln)
	}
	var row, srcs []*Box
	for _, o := range owners {
		ob := &ownerBlock{}
		if o.box != nil {
			ob.box = copyBox(o.box)
			if d.wrapAt > 0 && len(ln.owners) > 1 {
				shortTitle(ob.box, d.tiny)
			}
			row, srcs = append(row, ob.box), append(srcs, o.box)
		}
		s.measurePods(o, ob, d, ms)
		ms.maxCells = max(ms.maxCells, len(ob.cells))
		b.owners = append(b.owners, ob)
	}
	if len(idle) > 0 {
		ib := idleBox(ln, idle)
		row, srcs = append(row, ib), append(srcs, ib)
		b.owners = append(b.owners, &ownerBlock{box: ib})
		ms.grouped = appendOnce(ms.grouped, "old ReplicaSets with no pods are counted in one box")
	}
	s.fitRow(row, srcs, ms.budget(row, 0))
	// The top row may be as wide as the owners under it.
	for _, t := range ln.top {
		b.top = append(b.top, copyBox(t))
	}
	s.fitRow(b.top, ln.top, ms.budget(b.top, b.ownersWidth()))
	return b
}

// budget is how wide a row of boxes may be: the pane's width, or at a
// wrapping, what its boxes would take with lines of wrapAt characters
// (the owners' width under it at least, floor).
func (ms *measured) budget(row []*Box, floor int) int {
	if ms.d.wrapAt == 0 || len(row) < 2 && !ms.d.wrapAll {
		return ms.avail
	}
	w := 0
	for i, b := range row {
		if i > 0 {
			w += gapX
		}
		w += min(natural(b).W, max(TextWidth(ms.d.wrapAt), TextWidth(runes(b.Title))+2*BadgeW))
	}
	return min(ms.avail, max(w, floor))
}

// natural is a box at its natural size: no line wrapped.
func natural(b *Box) *Box { return size(copyBox(b), 0) }

// wrapOption is a box's lines wrapped to one width, and its size then.
type wrapOption struct {
	lines []string
	w, h  int
}

// wrapKey names a box's lines and title, whose wrapOptions a scene keeps
// for all the densities it is measured at.
type wrapKey struct {
	src   *Box
	title string
}

// wrapOptions are the ways a box's lines wrap, each narrower than the
// one before, from its natural width down to its longest word (or its
// title).
func (s *scene) wrapOptions(src *Box, title string) []wrapOption {
	k := wrapKey{src, title}
	if o, ok := s.wraps[k]; ok {
		return o
	}
	var out []wrapOption
	b := Box{Title: title, Spark: src.Spark, Marks: src.Marks}
	floor := TextWidth(runes(title)) + 2*BadgeW
	for n, word := longest(src.Lines), max(1, longestWord(src.Lines)); n >= word; n-- {
		b.Lines = wrap(src.Lines, n)
		size(&b, 0)
		if len(out) == 0 || b.W < out[len(out)-1].w {
			out = append(out, wrapOption{lines: b.Lines, w: b.W, h: b.H})
		}
		if b.W <= floor {
			break
		}
	}
	if s.wraps == nil {
		s.wraps = map[wrapKey][]wrapOption{}
	}
	s.wraps[k] = out
	return out
}

// fitRow sizes a row of boxes (copies of srcs) and narrows them, one
// wrapping at a time, until the row is no wider than budget: each time
// the box whose narrowing adds least to the row's height (the widest on
// a tie), so a short box beside a tall one wraps first. A box narrows no
// further than its longest word and its title allow.
func (s *scene) fitRow(row, srcs []*Box, budget int) {
	for _, b := range row {
		size(b, 0)
	}
	if rowWidth(row) <= budget {
		return
	}
	opts := make([][]wrapOption, len(row))
	at := make([]int, len(row))
	for i, b := range row {
		opts[i] = s.wrapOptions(srcs[i], b.Title)
	}
	for rowWidth(row) > budget {
		top := rowHeight(row)
		best, bestCost := -1, 0
		for i, b := range row {
			if at[i]+1 >= len(opts[i]) {
				continue
			}
			cost := max(opts[i][at[i]+1].h, top) - top
			if best < 0 || cost < bestCost || cost == bestCost && b.W > row[best].W {
				best, bestCost = i, cost
			}
		}
		if best < 0 {
			return
		}
		at[best]++
		o := opts[best][at[best]]
		row[best].Lines, row[best].W, row[best].H = o.lines, o.w, o.h
	}
}

// splitIdle sets apart a lane's idle ReplicaSets the story is not
// about, when there are two or more: they are drawn as one box.
func (s *scene) splitIdle(ln *lane) (owners, idle []*owner) {
	for _, o := range ln.owners {
		if o.idle && !s.focus[o.box.Key] && !s.expanded[foldID(ln)+"/idle"] {
			idle = append(idle, o)
		} else {
			owners = append(owners, o)
		}
	}
	if len(idle) < 2 {
		return ln.owners, nil
	}
	return owners, idle
}

// idleBox is one box for a lane's idle ReplicaSets: how many, and their
// revisions.
func idleBox(ln *lane, idle []*owner) *Box {
	var revs []string
	for _, o := range idle {
		if len(o.box.Lines) > 0 {
			revs = append(revs, strings.TrimPrefix(o.box.Lines[len(o.box.Lines)-1], "revision "))
		}
	}
	id := foldID(ln) + "/idle"
	title := fmt.Sprintf("%d old ReplicaSets", len(idle))
	return &Box{ID: id, Kind: "Folded", Name: id, Title: title, Lines: []string{"no pods · revisions " + strings.Join(revs, ", ")}, Status: "ok", Opens: id,
		Detail: title + ", kept for rollbacks, with no pods: revisions " + strings.Join(revs, ", ")}
}

// ownersWidth is the width of the owners' boxes side by side.
func (b *block) ownersWidth() int {
	var bs []*Box
	for _, ob := range b.owners {
		if ob.box != nil {
			bs = append(bs, ob.box)
		}
	}
	return rowWidth(bs)
}

// measurePods decides which of an owner's pods are drawn by themselves
// and sizes them, one cell size for all, and the group box of the rest.
func (s *scene) measurePods(o *owner, ob *ownerBlock, d density, ms *measured) {
	id := groupID(o)
	open := s.expanded[id] || s.all
	grouping := o.counts != nil || d.group && !open
	drawn := map[api.Key]bool{}
	for _, p := range o.pods {
		if !grouping || s.focus[p.key] {
			drawn[p.key] = true
		}
	}
	if grouping && o.counts == nil && o.total-len(drawn) == 1 {
		grouping = false // a group of one is drawn as the pod
		for _, p := range o.pods {
			drawn[p.key] = true
		}
	}
	if grouping && len(drawn) > MaxStoryPods {
		// A tick that wrote more pods than a pane holds (a ReplicaSet
		// creating a hundred at once): the first are drawn, the group
		// counts the rest.
		n := 0
		for _, p := range o.pods {
			if drawn[p.key] {
				if n++; n > MaxStoryPods {
					delete(drawn, p.key)
				}
			}
		}
	}
	for _, p := range o.pods {
		if !drawn[p.key] {
			continue
		}
		c := s.podBox(p, d.pods)
		ob.cells = append(ob.cells, c)
		ob.cellW, ob.cellH = max(ob.cellW, c.W), max(ob.cellH, c.H)
	}
	if d.pods == podFull {
		ob.cellW = max(ob.cellW, TextWidth(podChars))
	}
	for _, c := range ob.cells {
		c.W, c.H = ob.cellW, ob.cellH
	}
	switch {
	case grouping && o.total > len(drawn):
		ob.group = o.groupBox(drawn, o.counts == nil)
		if d.tiny {
			// Its counts stay in its accessible name.
			ob.group.Lines = nil
			ob.group.Title = strings.Replace(ob.group.Title, " more pods", " pods", 1)
			if len(drawn) > 0 {
				ob.group.Title = "+" + ob.group.Title
			}
		}
		size(ob.group, ms.wrapFor(2))
		ms.grouped = appendOnce(ms.grouped, "the pods this step is not about are grouped, with counts by status (click a group to open it)")
	case open && d.group && o.counts == nil && o.total > 1:
		ob.group = size(&Box{ID: id, Kind: "PodGroup", Name: id, Title: fmt.Sprintf("▴ fold %d pods", o.total), Status: "ok", Opens: id, Open: true}, 0)
	}
}

// groupID is the id of an owner's group box.
func groupID(o *owner) string {
	if o.uid == "" {
		return "group/pods"
	}
	return "group/" + o.uid
}

// foldedBox is a lane drawn as its first box alone, its title and a
// mark of its status (its first line in its accessible name); a click
// opens the lane.
func (s *scene) foldedBox(ln *lane, first *Box, ms *measured) *Box {
	b := copyBox(first)
	b.Detail = first.Title + " — " + strings.Join(first.Lines, " — ")
	b.Title += " " + StatusGlyph(first.Status)
	b.Lines, b.Stale = nil, ""
	b.ID, b.Kind, b.Name, b.Key, b.Opens = "fold/"+first.ID, "Folded", first.Title, api.Key{}, foldID(ln)
	if n := len(ln.owners); n > 0 && len(ln.top) > 0 {
		pods := 0
		for _, o := range ln.owners {
			pods += o.total
		}
		b.Detail += fmt.Sprintf(" (folded: %d owned objects and %d pods are not drawn)", n, pods)
	}
	b.Spark = nil
	return size(b, ms.wrapFor(2))
}

// measureNodes sizes the nodes: every one, or at a grouping density
// (and always above GroupNodesAbove) those the story is about with one
// group box for the rest.
func (s *scene) measureNodes(d density, ms *measured) []*Box {
	open := s.expanded["nodes"] || s.all
	grouping := len(s.nodes) > GroupNodesAbove || d.group && !open
	drawn := map[api.Key]bool{}
	for _, it := range s.nodes {
		if !grouping || s.focus[it.key] {
			drawn[it.key] = true
		}
	}
	if grouping && len(s.nodes)-len(drawn) <= 1 {
		grouping = false
		for _, it := range s.nodes {
			drawn[it.key] = true
		}
	}
	var out []*Box
	for _, it := range s.nodes {
		if drawn[it.key] {
			out = append(out, size(nodeBox(it, d.nodes), ms.wrapFor(len(s.nodes))))
		}
	}
	if grouping {
		// The same at every density: made once for the scene.
		if s.nodeGroup == nil {
			s.nodeGroup = nodeGroup(s.nodes, drawn, len(s.nodes) <= GroupNodesAbove)
		}
		out = append(out, size(copyBox(s.nodeGroup), ms.wrapFor(2)))
		ms.grouped = appendOnce(ms.grouped, "the nodes this step is not about are grouped")
	}
	return out
}

func appendOnce(ss []string, s string) []string {
	for _, x := range ss {
		if x == s {
			return ss
		}
	}
	return append(ss, s)
}
