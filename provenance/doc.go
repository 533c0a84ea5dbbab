// Package provenance answers the question a learner asks most: why does
// this field have this value? Given an object, a field and a tick, it
// follows the trace back: the tick that last wrote the field, what that
// tick read (the versions its cache held, stale or not), the ticks that
// wrote those versions, and so on back to the user's action (kubectl, a
// scenario action or fault) or to what existed before the story began.
//
// Which reads a step follows depends on the way its write moved state,
// as the control plane's layers do: a summary written up (aggregate) is
// explained by the objects below it that the component saw change (the
// reads their watch events queued, trace.Read.Queued); desired state
// written down (translate) and a kubelet's work (realize) by the object
// the component reconciled, as its cache held it, and then by what else
// it saw change; a binding by everything the scheduler read (the pod,
// and the nodes when none fits). A component reading back its own summary
// is passed over, to the write before it, so a chain never loops through
// a controller's status writes.
//
// Steps alike at the same distance from the question (three kubelets
// reporting three pods ready) are folded into one line, the chain is
// bounded (MaxTicks, MaxCauses) and what was left out is counted. Every
// step is a real write of the trace, found by the version a tick read;
// the property test checks that against the trace itself.
package provenance
