// Package kubectl is a subset of kubectl that runs against the simulated
// cluster and prints what kubectl prints: get (tables, wide, yaml, json,
// name, jsonpath, custom-columns), describe, rollout, scale, set image,
// set selector, patch, delete, cordon, uncordon, drain, label, annotate,
// taint, apply, create job, create cronjob, create poddisruptionbudget,
// autoscale, top and config.
// Reads see the API server at the current tick; writes become ticks of
// their own. The command-line tool and the playground's console share it.
package kubectl
