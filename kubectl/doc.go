// Package kubectl is a subset of kubectl that runs against the simulated
// cluster and prints what kubectl prints. Reads see the API server at the
// current tick; writes become ticks of their own. The command-line tool,
// the playground's console and the scenario's kubectl actions share it.
//
// The commands: get (tables, wide, yaml, json, name, jsonpath,
// custom-columns, --watch), describe, rollout status, rollout history,
// top, api-resources, config, version, apply, create (job, cronjob,
// poddisruptionbudget), scale, autoscale, set image, set selector, patch,
// rollout pause, rollout resume, rollout restart, rollout undo, delete,
// cordon, uncordon, drain, label, annotate and taint.
//
// How it is laid out:
//
//   - verbs.go is the one table of commands (verbTable): each names its
//     run (what it prints) and, for a command that changes the cluster,
//     its mutation (a builder of the Mutation a scenario action schedules
//     and the console runs as a tick). Session.RunArgs and ParseMutation
//     both dispatch through it. A new command is one entry there and a
//     file named after it (scale.go, drain.go, setimage.go …).
//   - Each kind has one entry in kinds.go's kindHelpers: its discovery
//     short name (its resource, group, version and scope come from
//     engine/api's kind registry), what get prints (its columns, the
//     -o wide ones marked, and its row function, as upstream's
//     printers.go registers a TableHandler per type), its describer (as
//     upstream's DescriberFor map) and what upstream's polymorphichelpers
//     find in it: the pod spec set image changes, the replicas scale
//     sets, rollout status's viewer, rollout restart's template, the
//     ControllerRevision history, apply's spec merge. The functions it
//     names live in the kind's file (job.go, cronjob.go, daemonset.go,
//     statefulset.go, service.go, hpa.go, pdb.go, configmap.go,
//     metrics.go) or, for the first kinds, in table.go and describe.go.
//     No command switches on kinds.
//   - What several commands share has a file per concern: flags.go,
//     resources.go (kubectl's resource names), output.go and yamlout.go
//     (-o), patch*.go (the three patch types), age.go, quantity.go.
package kubectl
