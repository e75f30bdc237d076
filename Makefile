# The user's entry points. `make measure` and `make test` work on a fresh machine.
CARGO ?= cargo
PROFILE ?= release
TARGET := target/$(PROFILE)
CARGO_PROFILE_FLAG := $(if $(filter release,$(PROFILE)),--release,)
HARNESS := $(TARGET)/harness
CALLGRAPH := $(TARGET)/callgraph

.PHONY: setup build measure test proofs gate bench fetch corpora lint clean

## setup: the toolchains the proofs need (python3, a JDK); deb-src for corpora.
setup:
	bash .ci/setup

build:
	$(CARGO) build --workspace $(CARGO_PROFILE_FLAG)

## measure: score the engine on every proof (the embedded default) into reports/.
measure: build
	$(HARNESS) measure --out reports

## test: unit and fixture tests, the proofs built and run, the gate against the baseline.
test: build
	$(CARGO) test --workspace $(CARGO_PROFILE_FLAG)
	$(HARNESS) proofs
	$(HARNESS) gate --baseline reports/baseline.json

proofs: build
	$(HARNESS) proofs

gate: build
	$(HARNESS) gate --baseline reports/baseline.json

## baseline: accept the current measurement as the new baseline (review the diff).
baseline: measure
	cp reports/measurements.json reports/baseline.json

bench:
	$(CARGO) bench -p engine

## fetch: download, verify (sha256) and unpack every corpus of corpora.json into .cache/.
fetch: build
	$(HARNESS) fetch --all

## corpora: measure every real corpus of corpora.json (needs network to registries).
corpora: build
	$(HARNESS) measure --all --out reports

lint:
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings

clean:
	$(CARGO) clean
