package api

import (
	"strconv"
	"strings"
)

// Lifecycle is v1.Lifecycle: hooks the kubelet runs around a
// container's life. The simulation runs preStop hooks that sleep.
type Lifecycle struct {
	PostStart *LifecycleHandler `json:"postStart,omitempty" yaml:"postStart,omitempty"`
	PreStop   *LifecycleHandler `json:"preStop,omitempty" yaml:"preStop,omitempty"`
}

// LifecycleHandler is v1.LifecycleHandler (exec and sleep).
type LifecycleHandler struct {
	Exec  *ExecAction  `json:"exec,omitempty" yaml:"exec,omitempty"`
	Sleep *SleepAction `json:"sleep,omitempty" yaml:"sleep,omitempty"`
}

// SleepAction is v1.SleepAction.
type SleepAction struct {
	Seconds int64 `json:"seconds" yaml:"seconds"`
}

// PreStopMS is how long the container's preStop hook takes: its sleep
// action, or an exec hook that only sleeps ("sleep 5", or
// ["/bin/sh", "-c", "sleep 5"]); 0 for none or any other hook.
func (c *Container) PreStopMS() int64 {
	if c.Lifecycle == nil || c.Lifecycle.PreStop == nil {
		return 0
	}
	h := c.Lifecycle.PreStop
	if h.Sleep != nil {
		return max(h.Sleep.Seconds, 0) * 1000
	}
	if h.Exec == nil || len(h.Exec.Command) == 0 {
		return 0
	}
	cmd := h.Exec.Command
	if len(cmd) == 3 && (cmd[0] == "/bin/sh" || cmd[0] == "sh") && cmd[1] == "-c" {
		cmd = strings.Fields(cmd[2])
	}
	if len(cmd) != 2 || (cmd[0] != "sleep" && cmd[0] != "/bin/sleep") {
		return 0
	}
	s, err := strconv.ParseFloat(strings.TrimSuffix(cmd[1], "s"), 64)
	if err != nil || s < 0 {
		return 0
	}
	return int64(s * 1000)
}

func (l *Lifecycle) deepCopy() *Lifecycle {
	if l == nil {
		return nil
	}
	return &Lifecycle{PostStart: l.PostStart.deepCopy(), PreStop: l.PreStop.deepCopy()}
}

func (h *LifecycleHandler) deepCopy() *LifecycleHandler {
	if h == nil {
		return nil
	}
	out := &LifecycleHandler{Sleep: copyPtr(h.Sleep)}
	if h.Exec != nil {
		out.Exec = &ExecAction{Command: copySlice(h.Exec.Command)}
	}
	return out
}
