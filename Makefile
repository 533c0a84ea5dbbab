# Stateflow: make run (the playground), make test (every test), make build
# (the static site in dist/), make bench, make fuzz.
GO        ?= go
WASM_EXEC := $(shell $(GO) env GOROOT)/lib/wasm/go_js_wasm_exec
ADDR      ?= 127.0.0.1:8080

.PHONY: check run wasm size editor build test fmt-check vet test-native test-wasm test-conformance conformance bench fuzz profile-page

# Builds the WebAssembly playground and serves it locally.
run: wasm
	$(GO) run ./cmd/stateflow serve --addr $(ADDR)

# The flags the site ships live in internal/wasmbuild (Flags).
wasm:
	$(GO) run ./cmd/stateflow wasm --out web/app.wasm

# What app.wasm weighs (raw, gzip, brotli) and where its code goes.
size:
	$(GO) run ./cmd/stateflow size

# Rebuilds the committed editor bundle web/codemirror.js (CodeMirror 6,
# see web/editor/) from the exact versions in package-lock.json. Needs
# Node and npm; make run, build and test use the committed bundle.
editor:
	cd web/editor && npm ci --no-audit --no-fund && npx --no-install esbuild src/editor.js \
		--bundle --format=iife --minify --target=es2022 --legal-comments=none --charset=utf8 \
		--banner:js='/* Stateflow editor: CodeMirror 6 and Lezer (MIT, Marijn Haverbeke and others); source web/editor, rebuilt by make editor */' \
		--outfile=../codemirror.js

build: wasm
	$(GO) run ./cmd/stateflow build --out dist

# Every test: formatting, vet, unit, golden, property and component tests,
# the browser tests in headless Chromium (required here, not skipped), a
# one-iteration run of every benchmark, the engine under WebAssembly, and
# the differential harness against the upstream controllers.
test: fmt-check vet test-native test-wasm test-conformance

# The inner loop (CONTRIBUTING.md): gofmt, vet, and every unit, golden,
# property and component test, without the browser tests, the wasm
# build and size budget, the 10,000-pod identity run and the
# differential harness, which make test adds. About a minute.
check: fmt-check vet
	$(GO) test -short ./...

fmt-check:
	@out="$$(gofmt -l .)"; if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...
	cd conformance && $(GO) vet ./...
	GOOS=js GOARCH=wasm $(GO) vet ./app/... ./wasm/...

# The npm packages the browser tests inject into the page (axe-core), at
# the exact versions of e2e/package-lock.json.
e2e/node_modules/axe-core/axe.min.js: e2e/package.json e2e/package-lock.json
	cd e2e && npm ci --no-audit --no-fund
	touch $@

# The browser tests (./e2e) take 15 to 17 minutes on the project's 2-core
# machine, past go test's default 10-minute limit per package.
test-native: e2e/node_modules/axe-core/axe.min.js
	STATEFLOW_E2E=1 $(GO) test -count=1 -timeout 30m ./...
	$(GO) test -count=1 -run '^$$' -bench . -benchtime 1x ./engine/... ./kubectl/... ./scenario/... ./app/model
	STATEFLOW_E2E=1 $(GO) test -count=1 -timeout 30m -run '^$$' -bench . -benchtime 1x ./e2e

# The engine and the view-model must behave the same compiled to WebAssembly (run under Node).
test-wasm:
	GOOS=js GOARCH=wasm $(GO) test -count=1 -exec="$(WASM_EXEC)" ./engine/... ./kubectl/... ./scenario/... ./app/model/... ./app/share/...

# The differential harness (its own module, conformance/, so app.wasm never
# links k8s.io/kubernetes): every deployment and ReplicaSet controller tick
# of every example, 20 random rollouts and 20 fault scenarios, re-decided by
# the upstream controllers (v1.34). `make conformance` replays 300 of each.
# Its commands' tests check the files they generate (scenario/realfields.go).
test-conformance:
	cd conformance && $(GO) test -count=1 ./cmd/...
	cd conformance && $(GO) test -c -o ../bin/conformance.test . && ../bin/conformance.test -test.count=1

conformance:
	cd conformance && $(GO) test -c -o ../bin/conformance.test . && ../bin/conformance.test -test.count=1 -test.timeout 60m -long

# Engine benchmarks natively and in WebAssembly (Node), the view-model,
# the playground in headless Chromium, and a 48-hour soak (figures in
# BENCHMARKS.md).
bench:
	$(GO) test -run '^$$' -bench . -benchmem -count 3 ./engine/... ./kubectl/... ./scenario/...
	STATEFLOW_BENCH_LARGE=1 $(GO) test -run '^$$' -bench 'Cluster/pods=150000' -benchtime 1x -timeout 60m ./engine
	STATEFLOW_BENCH_LARGE=1 $(GO) test -run '^$$' -bench 'Workloads' -benchtime 1x -timeout 30m ./engine
	GOOS=js GOARCH=wasm $(GO) test -exec="$(WASM_EXEC)" -run '^$$' -bench 'Create/pods=1000|RollingUpdate/pods=1000' -benchtime 3x ./engine
	$(GO) test -run '^$$' -bench . -benchmem ./app/model
	STATEFLOW_BENCH_LARGE=1 $(GO) test -run '^$$' -bench ViewsLarge -benchmem -benchtime 20x ./app/model
	STATEFLOW_E2E=1 STATEFLOW_BENCH_LARGE=1 $(GO) test -run '^$$' -bench . -benchtime 1x -timeout 90m ./e2e
	STATEFLOW_SOAK=1 $(GO) test -count=1 -run '^TestSoak$$' -v ./engine

# Long fuzzing runs (make test replays the committed corpora briefly).
FUZZTIME ?= 2m
# Profiles a cold load, 40 steps of the 100-pod scenario and a run until settled of
# 1,000 pods in headless Chromium with the DevTools profiler, and prints
# inclusive and self time per Go function.
profile-page:
	STATEFLOW_E2E=1 STATEFLOW_PROFILE=1 $(GO) test -count=1 -run '^TestProfile(Steps|Run|Load)$$' -v ./e2e

fuzz:
	$(GO) test ./scenario -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s
	$(GO) test ./kubectl -run '^$$' -fuzz '^FuzzCommand$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s
	$(GO) test ./kubectl -run '^$$' -fuzz '^FuzzSplit$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s
	$(GO) test ./kubectl -run '^$$' -fuzz '^FuzzJSONPath$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s
	$(GO) test ./app/share -run '^$$' -fuzz '^FuzzDecode$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s
	$(GO) test ./engine/api -run '^$$' -fuzz '^FuzzParseQuantity$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s
	$(GO) test ./engine -run '^$$' -fuzz '^FuzzFaults$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s
	$(GO) test ./engine/controller/cronjob -run '^$$' -fuzz '^FuzzSchedule$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s
	$(GO) test ./engine/timezone -run '^$$' -fuzz '^FuzzFromZip$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s
	$(GO) test ./engine/kubelet -run '^$$' -fuzz '^FuzzInfer$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s
	$(GO) test ./lesson -run '^$$' -fuzz '^FuzzLesson$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s
	$(GO) test ./claim -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s
	cd conformance && $(GO) test . -run '^$$' -fuzz '^FuzzQuantityCanonicalForm$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s
	$(GO) test ./engine/api/labels -run '^$$' -fuzz '^FuzzParseIsUpstreams$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s
	$(GO) test ./internal/wasmbuild -run '^$$' -fuzz '^FuzzAttribute$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s
