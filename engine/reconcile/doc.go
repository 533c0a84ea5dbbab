// Package reconcile is the contract between the engine and the simulated
// control-plane components, in the vocabulary of controller-runtime: a
// component observes watch events into its own informer cache and queues
// keys, and the engine later calls Reconcile for one key per tick with a
// Tick through which every write is recorded in the trace.
package reconcile
