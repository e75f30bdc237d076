# The user's entry points. `make measure` and `make test` work on a fresh machine.
CARGO ?= cargo
PROFILE ?= release
TARGET := target/$(PROFILE)
CARGO_PROFILE_FLAG := $(if $(filter release,$(PROFILE)),--release,)
HARNESS := $(TARGET)/harness
CALLGRAPH := $(TARGET)/callgraph
FUZZ := $(TARGET)/fuzz

.PHONY: setup tsc-oracle build measure test proofs gate bench fetch corpora lint clean fuzz

## setup: the toolchains the proofs need (python3, a JDK, node); deb-src for corpora;
## the pinned TypeScript checker of the tsc oracle (`npm ci` in oracles/tsc), Chromium and
## the pinned playwright-core of harness/tests/browser (the index.html test), GNU time
## for --peers. Idempotent and quick when everything is there: `make measure` and
## `make test` run it first, so a fresh clone needs nothing run before them.
setup:
	bash .ci/setup

## tsc-oracle: (re)install only the pinned TypeScript checker from its package-lock.
tsc-oracle:
	cd oracles/tsc && npm ci --no-audit --no-fund

build:
	$(CARGO) build --workspace $(CARGO_PROFILE_FLAG)

## measure: score the engine on every proof (the embedded default) into reports/;
## `make measure MEASURE_ARGS=--all` measures every corpus too (the committed tables);
## `MEASURE_ARGS="--all --peers"` also runs the peer tools (installed into .cache).
MEASURE_ARGS ?=
measure: setup build
	$(HARNESS) measure $(MEASURE_ARGS) --out reports

## test: unit and fixture tests, the proofs built and run, the gate against the baseline,
## and every fuzz target for a few seconds (a crash, a run past the budget or a
## difference between one and two threads fails it).
test: setup build
	$(CARGO) test --workspace $(CARGO_PROFILE_FLAG)
	$(HARNESS) proofs
	$(HARNESS) gate --baseline reports/baseline.json
	$(FUZZ) --seconds 3 --work $(TARGET)/fuzz-test

## fuzz: every fuzz target (each frontend, the report and truth readers) for
## FUZZ_SECONDS seconds each; findings under $(TARGET)/fuzz-work/findings (reports/RELIABILITY.md).
FUZZ_SECONDS ?= 60
FUZZ_SEED ?= 1
fuzz: build
	$(FUZZ) --seconds $(FUZZ_SECONDS) --seed $(FUZZ_SEED) --work $(TARGET)/fuzz-work --stats $(TARGET)/fuzz-work/stats.jsonl

proofs: build
	$(HARNESS) proofs

gate: build
	$(HARNESS) gate --baseline reports/baseline.json

## baseline: re-measure the gated rows and accept them as the new baseline (review the diff).
## The gate re-measures exactly the rows the baseline holds.
GATED ?= proofs-python proofs-java proofs-go proofs-rust proofs-c proofs-cpp proofs-typescript proofs-csharp proofs-kotlin proofs-ada pycg-micro gson ky hiredis
baseline: build
	$(HARNESS) measure $(foreach c,$(GATED),--corpus $(c)) --out .cache/baseline
	cp .cache/baseline/measurements.json reports/baseline.json

bench:
	$(CARGO) bench -p engine

## fetch: download, verify (sha256) and unpack every corpus of corpora.json into .cache/.
fetch: build
	$(HARNESS) fetch --all

## corpora: measure every real corpus of corpora.json (needs network to registries).
corpora: build
	$(HARNESS) measure --all --out reports

## lint: formatting, clippy, and actionlint on the workflows (.ci/setup installs the
## pinned actionlint from the Go module proxy into go's bin directory).
ACTIONLINT ?= $(or $(shell command -v actionlint 2>/dev/null),$(shell go env GOPATH 2>/dev/null)/bin/actionlint)
lint:
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings
	$(ACTIONLINT) .github/workflows/*.yml

clean:
	$(CARGO) clean
