// Package timezone loads the IANA time zones a CronJob names (its
// spec.timeZone, or TZ= in its schedule) for the API server's validation
// and the CronJob controller.
//
// The engine is given a Loader (engine.Config.TimeZones). Natively the
// default is time.LoadLocation, as kube-apiserver and
// kube-controller-manager load zones: the machine's database, else the
// one linked in (time/tzdata), so a machine without one loads every
// zone too. The browser's app.wasm leaves the database out, 400 KB that
// few scenarios need, and gives the engine Lazy: the zones of the
// zoneinfo.zip the site serves beside app.wasm (Go's own, from the
// release that built it, which time/tzdata embeds too), downloaded the
// first time a scenario names a zone other than UTC.
//
// ParseStandard is robfig/cron's standard parser, the one the API server
// and the controller use, with the zone of a "TZ=" schedule loaded
// through the Loader.
package timezone
