package kubelet

import (
	"fmt"
	"strconv"

	"github.com/stateflow/stateflow/engine/api"
)

// texts are what a kubelet writes again for every pod of a workload, each
// made once: the image's digest reference, a container's field path, the
// messages of its Pulling, Created, Started and Stopping Events and of
// the ContainersReady condition, the pod addresses, and the parts of a
// container status that repeat (the started flag, a waiting state
// without a message). Every entry is a pure function of its key, so a
// kubelet's clones share them (the engine runs one clone at a time):
// what is kept never changes what is written, only how many copies of it
// the Events and statuses hold. They grow with the distinct images and
// container names the kubelet has run; the pod addresses (of the
// kubelet's one network) are at most 253.
type texts struct {
	imageIDs   map[string]string // by image
	fieldPaths map[string]string // by container name
	messages   map[textKey]string
	ips        [255]string                           // the pod addresses, by their last byte
	flags      [2]*bool                              // false and true, for containerStatuses' started
	waits      map[string]*api.ContainerStateWaiting // by reason, without a message
}

// textKey is an Event message by its reason and what it names (the image
// or the container).
type textKey struct{ reason, arg string }

func newTexts() *texts {
	f, t := false, true
	return &texts{imageIDs: map[string]string{}, fieldPaths: map[string]string{}, messages: map[textKey]string{},
		flags: [2]*bool{&f, &t}, waits: map[string]*api.ContainerStateWaiting{}}
}

// imageID is imageID(image), made once.
func (t *texts) imageID(image string) string {
	if id, ok := t.imageIDs[image]; ok {
		return id
	}
	id := imageID(image)
	t.imageIDs[image] = id
	return id
}

// fieldPath is the involvedObject.fieldPath of a container's Events
// (spec.initContainers{name} for an init container).
func (t *texts) fieldPath(name string, init bool) string {
	key := name
	if init {
		key = "\x00" + name // not a container name: init and regular paths apart
	}
	if f, ok := t.fieldPaths[key]; ok {
		return f
	}
	f := "spec.containers{" + name + "}"
	if init {
		f = "spec.initContainers{" + name + "}"
	}
	t.fieldPaths[key] = f
	return f
}

// pulling is the Pulling Event's message for image.
func (t *texts) pulling(image string) string {
	return t.message("Pulling", image, func() string { return fmt.Sprintf("Pulling image %q", image) })
}

// created is the Created Event's message for a container.
func (t *texts) created(name string) string {
	return t.message("Created", name, func() string { return "Created container: " + name })
}

// started is the Started Event's message for a container.
func (t *texts) started(name string) string {
	return t.message("Started", name, func() string { return "Started container " + name })
}

// stopping is the Killing Event's message when a container is stopped
// for its pod's deletion.
func (t *texts) stopping(name string) string {
	return t.message("Killing", name, func() string { return "Stopping container " + name })
}

// flag is the kept pointer to b.
func (t *texts) flag(b bool) *bool {
	if b {
		return t.flags[1]
	}
	return t.flags[0]
}

// waiting is the waiting state with reason and message: kept once per
// reason when there is no message (ContainerCreating, for every pod); a
// message names its pod (a back-off's), so a state with one is made anew.
func (t *texts) waiting(reason, message string) *api.ContainerStateWaiting {
	if message != "" {
		return &api.ContainerStateWaiting{Reason: reason, Message: message}
	}
	if w, ok := t.waits[reason]; ok {
		return w
	}
	w := &api.ContainerStateWaiting{Reason: reason}
	t.waits[reason] = w
	return w
}

// ip is the pod address with last byte n in the network of prefix (the
// kubelet's podCIDR without its final 0/24).
func (t *texts) ip(prefix string, n int) string {
	if t.ips[n] == "" {
		t.ips[n] = prefix + strconv.Itoa(n)
	}
	return t.ips[n]
}

// unready is the ContainersReady condition's message for the unready
// containers' names, space-separated (GenerateContainersReadyCondition's
// fmt.Sprintf("containers with unready status: %s", unready)).
func (t *texts) unready(names string) string {
	return t.message("ContainersNotReady", names, func() string { return "containers with unready status: [" + names + "]" })
}

// message is the kept message of reason about arg, written by build the
// first time.
func (t *texts) message(reason, arg string, build func() string) string {
	k := textKey{reason, arg}
	if m, ok := t.messages[k]; ok {
		return m
	}
	m := build()
	t.messages[k] = m
	return m
}
