package model

import (
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/trace"
)

// The flow diagram is laid out for the room its pane has, in CSS pixels,
// and drawn at that size or larger: its text is never smaller than
// FontPx. When the world does not fit at full detail it is drawn denser
// (a ladder of densities, flow_fit.go): pods of one owner wrap into more
// rows, boxes wrap their lines, pods and nodes become smaller, then the
// pods and nodes the story is not about are folded into groups with
// counts, then the workloads it is not about into one line each. What
// the current tick wrote is always drawn by itself.
//
// The files: flow_scene.go gathers what is drawn (lanes of workloads,
// the Services, the nodes) and what the story is about; the kinds'
// files (flow_deployment.go, flow_batch.go, flow_daemonset.go,
// flow_statefulset.go, flow_hpa.go, flow_pdb.go, flow_service.go,
// flow_dataplane.go, flow_pods.go, flow_nodes.go) say what a box of
// theirs reads; flow_place.go places a scene at one density;
// flow_fit.go picks the density; flow_arrows.go draws the tick's
// effects; flow_text.go measures text.

// Viewport is the room the diagram is laid out in, in CSS pixels, and
// what the visitor asked of it.
type Viewport struct {
	W, H int
	// Expanded are the groups the visitor opened (their Box.ID): their
	// pods or nodes are drawn one by one.
	Expanded map[string]bool
	// All draws every object by itself (an owner's pods up to
	// MaxDrawnPods), however little room there is: the pane scrolls.
	All bool
	// MinFont, when below FontPx, lets a diagram that does not fit at
	// FontPx be drawn at this size instead (the embed's 11 px) before it
	// is grouped and scrolls.
	MinFont int
}

// DefaultViewport is the room assumed before the page has measured its
// pane (the prerendered page, native tests): the diagram's pane at
// 1366×768.
var DefaultViewport = Viewport{W: 680, H: 420}

// Box is one object in the diagram, or a group of objects.
type Box struct {
	ID    string // "Kind/ns/name", or a group's id
	Kind  string // the object's kind, PodGroup, NodeGroup or Folded
	Name  string
	Key   api.Key // the object's key; empty for a group
	X, Y  int
	W, H  int
	Title string
	Lines []string
	// Detail is what the box abbreviates, for its accessible name and
	// tooltip ("" when Title and Lines say it all).
	Detail string
	Stale  string // what a controller's stale cache believes, if it differs
	Status string // ok, progress, warn, bad, gone
	// Highlight is the class of the tick's effect on the object.
	Highlight trace.Class
	Actor     bool // the tick's component acted on this object
	// Spark is a Service's traffic, oldest interval first, drawn as bars
	// under its lines.
	Spark []SparkBar
	// Marks are the statuses of a group's members, one mark each (at
	// most MaxMarks), drawn as small squares under its lines.
	Marks []string
	// Opens is what a click on the box opens (its key in
	// Viewport.Expanded; "" for a box that is not a group); Open says it
	// is open (the box stands for an owner's pods drawn one by one at the
	// visitor's request), and a click folds it again.
	Opens string
	Open  bool
	// Refused says this budget refused an eviction this tick (429).
	Refused bool
	// Lesson says the lesson's step points at this object.
	Lesson bool
	// Why numbers the object in the inspector's open "why?" chain: the
	// step it first appears in, 1 the newest (0 when it is not in one);
	// WhyStep is that step in a sentence (its ticks, the component that
	// acted and what it did), for the box's accessible name and tooltip.
	Why     int
	WhyStep string
}

// SparkBar is one interval of traffic: requests served and failed.
type SparkBar struct{ Served, Failed int }

// Edge connects an owner to what it owns, or a pod to its node.
type Edge struct {
	From, To string
	Kind     string // "owns", "bound", "scales" (an HPA) or "guards" (a PDB)
}

// Arrow is one effect of the current tick.
type Arrow struct {
	X1, Y1, X2, Y2 int
	// ViaY, when set, routes the arrow down to ViaY and along it to X2:
	// Events leave through the gap under their row.
	ViaY  int
	Class trace.Class
	// Label names the effect; LabelX and LabelY are where its text
	// starts (its baseline), placed clear of every box. An arrow whose
	// label is said by another (the same class, from the same place) has
	// none.
	Label          string
	LabelX, LabelY int
}

// Text is a label of the diagram itself: the row of desired and
// observed state, the scheduler's junction, the Events channel.
type Text struct {
	X, Y  int
	Text  string
	Class string // header, junction, events
	// Vertical text runs top to bottom (the Events channel).
	Vertical bool
}

// Flow is the diagram at the current tick, laid out for a Viewport.
type Flow struct {
	Width, Height int
	Boxes         []Box
	Edges         []Edge
	Arrows        []Arrow
	Texts         []Text
	// WhyLinks are the path of the inspector's open "why?" answer
	// (flow_why.go).
	WhyLinks []WhyLink
	// SchedulerY is where the scheduler junction is drawn, between pods
	// and nodes; NodesY the node row; EventsX the Events channel.
	SchedulerY, NodesY int
	EventsX            int
	// Fits says the diagram fits its viewport, drawn at FontPx or (when
	// the viewport allows) at its MinFont. When it does not (a very small
	// pane, or Viewport.All), it is drawn at FontPx, the pane scrolls and
	// Focus is the box to bring into view.
	Fits  bool
	Focus string
	// Grouped says what was folded to fit, in a sentence ("" if nothing).
	Grouped string
	// Density is the step of the ladder the diagram is drawn at (0: every
	// object at full detail), for tests and the page's data attributes.
	Density int
}

// Flow lays out the diagram for the viewport: every Deployment with its
// ReplicaSets and pods, every DaemonSet and StatefulSet with its pods,
// every CronJob with its Jobs and every Job with its pods, every
// HorizontalPodAutoscaler and PodDisruptionBudget beside what it acts
// on, the Services, the scheduler junction and the nodes, the Events
// channel, and the current tick's effects.
func (m *Model) Flow(v Viewport) (f Flow) {
	defer m.guard("drawing the flow")
	if m.eng == nil {
		return Flow{Width: 400, Height: 200, Fits: true}
	}
	s := m.scene(v)
	return s.fit(v)
}
