package trace

import (
	"encoding/json"
	"fmt"
	"strings"
)

// jsonTick is the stable JSON form of a tick (the command line's contract, docs/contracts.md).
type jsonTick struct {
	Tick        int          `json:"tick"`
	Time        int64        `json:"time"`
	Component   string       `json:"component"`
	Host        string       `json:"host,omitempty"`
	Object      string       `json:"object"`
	Explanation string       `json:"explanation"`
	Reads       []jsonRead   `json:"reads,omitempty"`
	Effects     []jsonEffect `json:"effects"`
	Error       string       `json:"error,omitempty"`
	Rules       []jsonRule   `json:"rules,omitempty"`
	Traffic     *jsonTraffic `json:"traffic,omitempty"`
	Output      string       `json:"output,omitempty"`
}

// jsonRule is a Service port a kube-proxy reprogrammed on its node.
type jsonRule struct {
	Service   string            `json:"service"`
	Port      string            `json:"port,omitempty"`
	Address   string            `json:"address,omitempty"`
	Added     []string          `json:"added"`
	Removed   []string          `json:"removed"`
	Endpoints int               `json:"endpoints"`
	Pods      map[string]string `json:"pods,omitempty"`
	Gone      bool              `json:"gone,omitempty"`
}

// jsonTraffic is an interval of synthetic requests.
type jsonTraffic struct {
	Service string      `json:"service"`
	Port    string      `json:"port,omitempty"`
	From    int64       `json:"from"`
	To      int64       `json:"to"`
	Sent    int         `json:"sent"`
	Served  int         `json:"served"`
	Failed  int         `json:"failed"`
	Routes  []jsonRoute `json:"routes"`
}

type jsonRoute struct {
	Node      string `json:"node"`
	Endpoint  string `json:"endpoint,omitempty"`
	Pod       string `json:"pod,omitempty"`
	RulesTick int    `json:"rulesTick"`
	Outcome   string `json:"outcome"`
	Count     int    `json:"count"`
	First     int64  `json:"first"`
	Last      int64  `json:"last"`
}

type jsonRead struct {
	Object string `json:"object"`
	Cached string `json:"cached"`
	Live   string `json:"live"`
	Stale  bool   `json:"stale,omitempty"`
	Queued bool   `json:"queued,omitempty"`
}

type jsonEffect struct {
	Class   Class    `json:"class"`
	Op      Op       `json:"op"`
	Object  string   `json:"object"`
	Changes []Change `json:"changes"`
	Summary string   `json:"summary"`
}

// MarshalJSON renders the tick in the CLI's JSON-lines schema.
func (t *Tick) MarshalJSON() ([]byte, error) {
	j := jsonTick{Tick: t.Seq, Time: t.Time, Component: t.Component, Host: t.Host, Object: t.Object.String(),
		Explanation: t.Explanation(), Error: t.Err(), Output: t.Output(), Effects: make([]jsonEffect, 0, len(t.Effects))}
	for _, r := range t.Reads {
		j.Reads = append(j.Reads, jsonRead{Object: r.Object.String(), Cached: r.Cached, Live: r.Live, Stale: r.Stale(), Queued: r.Queued})
	}
	for i := range t.Effects {
		e := &t.Effects[i]
		ch := e.Changes()
		if ch == nil {
			ch = []Change{}
		}
		j.Effects = append(j.Effects, jsonEffect{Class: e.Class, Op: e.Op, Object: e.Object.String(), Changes: ch, Summary: e.Text()})
	}
	for _, r := range t.Rules() {
		j.Rules = append(j.Rules, jsonRule{Service: r.Service.String(), Port: r.Port, Address: r.Address, Added: nonNil(r.Added), Removed: nonNil(r.Removed),
			Endpoints: r.Endpoints, Pods: r.Pods, Gone: r.Gone})
	}
	if tr := t.Traffic(); tr != nil {
		j.Traffic = &jsonTraffic{Service: tr.Service.String(), Port: tr.Port, From: tr.From, To: tr.To, Sent: tr.Sent, Served: tr.Served,
			Failed: tr.Failed, Routes: make([]jsonRoute, len(tr.Routes))}
		for i, r := range tr.Routes {
			j.Traffic.Routes[i] = jsonRoute(r)
		}
	}
	return json.Marshal(j)
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// FormatTime renders virtual milliseconds as "12.345s".
func FormatTime(ms int64) string { return fmt.Sprintf("%d.%03ds", ms/1000, ms%1000) }

// Text renders the tick as one line: number, time, actor, the classes of
// its effects as arrows, and the explanation.
func (t *Tick) Text() string {
	var arrows strings.Builder
	for _, c := range t.Classes() {
		arrows.WriteString(c.Symbol())
	}
	line := fmt.Sprintf("%5d %10s  %-28s %-5s %s", t.Seq, FormatTime(t.Time), t.Actor(), arrows.String(), t.Explanation())
	if t.Err() != "" {
		line += " [error: " + t.Err() + "]"
	}
	return line
}
