package apiserver

import (
	"reflect"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/timezone"
)

// A strategy is one kind's behaviour in the API server, as upstream keeps
// it in pkg/registry/<group>/<resource>/strategy.go. Each kind's lives in
// the kind's file, and strategyFor registers it: the store's create,
// update and status writes switch on no kind.
type strategy struct {
	// hasSpec says the kind has a spec whose changes the generation
	// counts (it starts at 1).
	hasSpec bool
	// prepareForCreate sets the type meta, the defaults and an empty
	// status (PrepareForCreate); a pod shares what admission adds to many
	// pods (shared), and its spec with the pods made from the same
	// template (specs, when not nil).
	prepareForCreate func(obj api.Object, shared *admitted, specs *podSpecs)
	// admit is the kind's admission plugins that read the store (a pod's
	// Priority), run before the object is named: they may refuse it
	// (Forbidden) or set fields of it; nil if none.
	admit func(s *Store, obj api.Object) error
	// defaults fills in the API defaults of the kind's spec in place
	// (SetDefaults_<Kind>, which the API server applies when it decodes a
	// request); nil if it has none.
	defaults func(obj api.Object)
	// validate adds the kind's field errors to e (Validate<Kind>), the
	// zones a CronJob names loading through zones; nil if it has none
	// beyond the metadata's.
	validate func(e *errs, obj api.Object, zones timezone.Loader)
	// allocate reserves what the kind's storage allocates on create once
	// the name is known to be free (a Service's cluster IP and node
	// ports); nil if nothing.
	allocate func(s *Store, obj api.Object) error
	// named finishes a create once the object has its uid (a Job's
	// selector names it); nil if nothing.
	named func(obj api.Object)
	// prepareForUpdate readies obj to replace the stored old
	// (PrepareForUpdate and ValidateUpdate's immutable fields): the
	// defaults, old's type meta and status, the generation.
	prepareForUpdate func(s *Store, obj, old api.Object) error
	// sameStatus and withStatusOf are the status subresource: a write of
	// the same status changes nothing, and a status write keeps
	// everything of the stored old but src's status (the status
	// strategy's PrepareForUpdate; stored objects are immutable, so the
	// new version shares the rest: a shallow copy). A nil sameStatus: a
	// status write replaces the object; a nil withStatusOf keeps src as
	// written.
	sameStatus   func(obj, old api.Object) bool
	withStatusOf func(old, src api.Object) api.Object
}

// strategyFor is kind's strategy, nil if it has none: the registry,
// one line per kind.
func strategyFor(kind string) *strategy {
	switch kind {
	case api.KindDeployment:
		return &deploymentStrategy
	case api.KindReplicaSet:
		return &replicaSetStrategy
	case api.KindReplicationController:
		return &replicationControllerStrategy
	case api.KindPod:
		return &podStrategy
	case api.KindNode:
		return &nodeStrategy
	case api.KindEvent:
		return &eventStrategy
	case api.KindNamespace:
		return &namespaceStrategy
	case api.KindService:
		return &serviceStrategy
	case api.KindEndpointSlice:
		return &endpointSliceStrategy
	case api.KindEndpoints:
		return &endpointsStrategy
	case api.KindDaemonSet:
		return &daemonSetStrategy
	case api.KindControllerRevision:
		return &controllerRevisionStrategy
	case api.KindStatefulSet:
		return &statefulSetStrategy
	case api.KindPersistentVolumeClaim:
		return &claimStrategy
	case api.KindJob:
		return &jobStrategy
	case api.KindCronJob:
		return &cronJobStrategy
	case api.KindHorizontalPodAutoscaler:
		return &hpaStrategy
	case api.KindPodDisruptionBudget:
		return &pdbStrategy
	case api.KindPodMetrics:
		return &podMetricsStrategy
	case api.KindNodeMetrics:
		return &nodeMetricsStrategy
	case api.KindConfigMap:
		return &configMapStrategy
	case api.KindSecret:
		return &secretStrategy
	case api.KindPriorityClass:
		return &priorityClassStrategy
	}
	return nil
}

// noStrategy is the strategy of a kind without one: stored as written.
var noStrategy = strategy{}

// strategyOf is obj's kind's strategy.
func strategyOf(obj api.Object) *strategy {
	if st := strategyFor(obj.GetKind()); st != nil {
		return st
	}
	return &noStrategy
}

// prepareForCreate applies obj's kind's PrepareForCreate.
func prepareForCreate(obj api.Object, shared *admitted, specs *podSpecs) {
	if t, ok := obj.(interface{ SetKind(string) }); ok {
		t.SetKind(obj.GetKind())
	}
	if f := strategyOf(obj).prepareForCreate; f != nil {
		f(obj, shared, specs)
	}
}

// statusField gives the strategy of the kind of example, whose status
// is its Status field, its status subresource (sameStatus and
// withStatusOf) and returns it. The field is found once, when the
// strategy is built; reflection rather than a generic function keeps one
// copy of the code for every kind.
func statusField(s strategy, example api.Object) strategy {
	t := reflect.TypeOf(example).Elem()
	f, ok := t.FieldByName("Status")
	if !ok || len(f.Index) != 1 {
		panic("apiserver: " + t.Name() + " has no Status field of its own")
	}
	i := f.Index[0]
	status := func(o api.Object) reflect.Value { return reflect.ValueOf(o).Elem().Field(i) }
	s.sameStatus = func(obj, old api.Object) bool {
		return reflect.DeepEqual(status(obj).Addr().Interface(), status(old).Addr().Interface())
	}
	s.withStatusOf = func(old, src api.Object) api.Object {
		c := reflect.New(t)
		c.Elem().Set(reflect.ValueOf(old).Elem())
		c.Elem().Field(i).Set(status(src))
		return c.Interface().(api.Object)
	}
	return s
}
