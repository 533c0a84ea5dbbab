package kubelet

// texts are the strings a kubelet writes again for every pod of a
// workload (the image's digest reference, a container's field path and
// the messages of its Pulling, Created, Started and Stopping Events),
// each made once. Every entry is a pure function of its key, so a
// kubelet's clones share them: what is kept never changes what is
// written, only how many copies of it the Events and statuses hold.
type texts struct {
	imageIDs   map[string]string // by image
	fieldPaths map[string]string // by container name
	messages   map[textKey]string
}

// textKey is an Event message by its words and what it names.
type textKey struct{ format, arg string }

func newTexts() *texts {
	return &texts{imageIDs: map[string]string{}, fieldPaths: map[string]string{}, messages: map[textKey]string{}}
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

// fieldPath is the involvedObject.fieldPath of a container's Events.
func (t *texts) fieldPath(name string) string {
	if f, ok := t.fieldPaths[name]; ok {
		return f
	}
	f := "spec.containers{" + name + "}"
	t.fieldPaths[name] = f
	return f
}

// message is make(arg), made once per (format, arg): format names the
// message (its words), make writes it.
func (t *texts) message(format, arg string, make func(string) string) string {
	k := textKey{format, arg}
	if m, ok := t.messages[k]; ok {
		return m
	}
	m := make(arg)
	t.messages[k] = m
	return m
}
