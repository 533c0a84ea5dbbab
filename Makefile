# Stateflow: make run (try it), make test (every test), make bench.
GO        ?= go
WASM_EXEC := $(shell $(GO) env GOROOT)/lib/wasm/go_js_wasm_exec
SCENARIO  ?= examples/codartium-api.yaml

.PHONY: run test test-native test-wasm vet fmt-check bench build fuzz

# Until the playground lands, `make run` runs the engine on the seed
# scenario from the command line and prints the whole trace.
run:
	$(GO) run ./cmd/stateflow run $(SCENARIO) --until-settled

test: fmt-check vet test-native test-wasm

fmt-check:
	@out="$$(gofmt -l .)"; if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

test-native:
	$(GO) test -count=1 ./...
	$(GO) test -count=1 -run '^$$' -bench . -benchtime 1x ./engine/...

# The engine must behave the same compiled to WebAssembly (run under Node).
test-wasm:
	GOOS=js GOARCH=wasm $(GO) test -count=1 -exec="$(WASM_EXEC)" ./engine/...

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./engine/...

build:
	mkdir -p bin && $(GO) build -trimpath -o bin/stateflow ./cmd/stateflow

# Long fuzzing runs (make test replays the committed corpora briefly).
FUZZTIME ?= 2m
fuzz:
	$(GO) test ./engine/scenario -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s
	$(GO) test ./engine/kubectl -run '^$$' -fuzz '^FuzzCommand$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s
	$(GO) test ./engine/kubectl -run '^$$' -fuzz '^FuzzSplit$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s
	$(GO) test ./engine/kubectl -run '^$$' -fuzz '^FuzzJSONPath$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s
