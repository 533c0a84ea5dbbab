package manifest

import (
	"fmt"
	"strings"
)

// Deployment is an apps/v1 Deployment as the generated scenarios write
// it, in flow style: its pods carry the label app=<Name> and run one
// container.
type Deployment struct {
	Name     string
	Replicas int
	// Spec holds more lines under spec, after replicas (strategy,
	// minReadySeconds…), each indented two spaces and ending in a newline.
	Spec string
	// Container is the container's name; Name when empty.
	Container string
	Image     string
	// Lines holds more lines under the container (probes, resources),
	// each indented ten spaces and ending in a newline.
	Lines string
}

// YAML renders the Deployment as one YAML document (without "---").
func (d Deployment) YAML() string {
	container := d.Container
	if container == "" {
		container = d.Name
	}
	var b strings.Builder
	fmt.Fprintf(&b, "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: %s}\nspec:\n  replicas: %d\n", d.Name, d.Replicas)
	b.WriteString(d.Spec)
	fmt.Fprintf(&b, "  selector: {matchLabels: {app: %s}}\n  template:\n    metadata: {labels: {app: %s}}\n    spec:\n      containers:\n", d.Name, d.Name)
	fmt.Fprintf(&b, "        - name: %s\n          image: %s\n", container, d.Image)
	b.WriteString(d.Lines)
	return b.String()
}

// Lines written under a container by more than one scenario.
const (
	// ReadinessEvery2s probes GET / on port 80 every 2 s.
	ReadinessEvery2s = "          readinessProbe: {httpGet: {path: /, port: 80}, periodSeconds: 2}\n"
	// ReadinessEvery5s probes GET / on port 80 every 5 s.
	ReadinessEvery5s = "          readinessProbe: {httpGet: {path: /, port: 80}, periodSeconds: 5}\n"
)

// Requests is a container's resources line requesting cpu and memory.
func Requests(cpu, memory string) string {
	return fmt.Sprintf("          resources: {requests: {cpu: %s, memory: %s}}\n", cpu, memory)
}
