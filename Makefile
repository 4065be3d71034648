# Kneeboard: `make up` starts it, `make test` runs every test. Both install what they need (Debian 12, root).
.PHONY: up test test-python test-go test-frontend api-types bench bench-capacity-search bench-login-flood bench-devsim bench-harness bench-history bench-dns-capture bench-sched bench-http bench-fanout-devsim bench-exporters bench-seed001 bench-templates bench-profiling lab-up lab-down compose-check compose-test clean

up:
	scripts/install-deps.sh run
	.venv/bin/kneeboard up

test:
	scripts/install-deps.sh test
	$(MAKE) test-go test-frontend test-python

test-go:
	cd simulator && PATH="$$PATH:/usr/local/go/bin" go vet ./... && PATH="$$PATH:/usr/local/go/bin" go test ./...

test-frontend:
	cd frontend && npm run --silent check:api && npm test --silent

# Three lanes at once, each with its own stack (scripts/test-python.sh): the lab's, loopback's and background; KB_TEST_LANES=1 runs one pytest.
test-python:
	scripts/test-python.sh

# The suite on a busy host (issue 48): `make test`'s lanes with `stress-ng --cpu 1` at normal priority beside them
# (started and ended by its PID); must pass as `make test` does.
.PHONY: test-busy check-commands
test-busy:
	scripts/install-deps.sh test
	KB_TEST_BUSY=1 scripts/test-python.sh

# Every external command the code and tests start comes from scripts/install-deps.sh (seconds; test-python.sh runs it).
check-commands:
	.venv/bin/python scripts/check-commands.py

# Regenerate the OpenAPI document and the frontend's API types from the backend.
api-types:
	.venv/bin/python scripts/dump_openapi.py > frontend/openapi.json
	cd frontend && npm run --silent gen:api

bench: bench-devsim bench-harness bench-history bench-dns-capture

# 100,000 devsim devices spread over 4 agents, each in its own network namespace of the lab (root); figures printed, recorded in docs/performance/fanout-devsim.md.
bench-fanout-devsim:
	KB_FANOUT_DEVICES=100000 KB_FANOUT_RAMP=$(or $(RAMP),1000) .venv/bin/pytest tests/integration/test_fanout_lab.py -k devices -s -q

# 300 wrong logins, 50 at a time, from their own process at nice 10 (an attacker's CPU is not the server's), with health polled from another process: prints health p50/p99 and asserts p99 < 100 ms.
bench-login-flood:
	KB_BENCH=1 .venv/bin/pytest tests/integration/test_login_flood.py -k flood -s -q

bench-harness:
	.venv/bin/python tests/bench/harness.py

bench-devsim:
	simulator/bench/bench.sh

# dnsperf's highest rate with latency capture on (through the runner) against plain dnsperf by hand; writes docs/performance/dns-capture.md.
bench-capacity-search:
	.venv/bin/python tests/bench/capacity_search.py

bench-dns-capture:
	.venv/bin/python tests/bench/dns_capture.py

# dnsperf through Kneeboard (a campaign on a real worker) against the same argv by hand, near unbound's saturation (issue 34)
bench-sched:
	.venv/bin/python tests/bench/sched_ab.py

# kbhttp beside vegeta v12.13.0 (built into /tmp/kb-bench-bin, outside the repo) and wrk at low concurrency, one nginx on
# loopback, one run: p50/p99 and CPU per request per rate; writes docs/performance/http-load.md (PROFILE=1: kbhttp's pprof at 10k).
bench-http:
	scripts/install-deps.sh bench
	.venv/bin/python tests/bench/http_load.py

# Campaign history at 1,000 and 10,000 campaigns (5M samples) in a private Postgres; writes docs/performance/history.md (LIGHT=1: 1M samples).
bench-history:
	.venv/bin/python tests/bench/history.py $(if $(LIGHT),--light,)

# A capacity search against the lab's CoreDNS, 3 times with 3 exporters scraped and 3 without (root): per-point overhead,
# capacities and their spread; writes docs/performance/exporter-overhead.md.
bench-exporters:
	.venv/bin/python tests/bench/exporter_overhead.py

# A capacity search against the lab's CoreDNS, 3 times with a CPU profile at 99 Hz and 3 without (root, perf): both
# capacities and their spread; writes docs/performance/cpu-profile-overhead.md.
bench-profiling:
	.venv/bin/python tests/bench/cpu_profile_overhead.py

# Seed 001's template whole against the lab's CoreDNS (root, ~7 min): minimal vs log to a file, 3 repetitions a side;
# the comparison must find logging worse by the server's CPU per 1,000 queries (figures printed).
bench-seed001:
	scripts/install-deps.sh test
	KB_SEED_TEMPLATES=1 .venv/bin/pytest -q -s -p no:cacheprovider tests/integration/test_seed_templates_full.py -k logging

# Every seed's template whole against the lab (root), one after another: each one's time (goal: 10 minutes) and conclusion.
bench-templates:
	scripts/install-deps.sh test
	KB_SEED_TEMPLATES=1 .venv/bin/pytest -q -s -p no:cacheprovider tests/integration/test_seed_templates_full.py

# The campaign analysis on 10,000 campaigns generated from queueing models with known truth (issue 47; no lab, ~2 min):
# per statement its misses and false alarms; exits 1 when the knee, ceiling or generator-limited targets are missed.
.PHONY: bench-analysis
bench-analysis:
	.venv/bin/python tests/bench/analysis.py
	.venv/bin/pytest -q -s tests/unit/test_sequential_simulation.py -k identical_variants  # repeat until decided: 2,000 drifting-host campaigns a case

lab-up:
	.venv/bin/kneeboard lab up

lab-down:
	.venv/bin/kneeboard lab down

# The team install for real (root): stand-in base images built offline, docker-compose.yml built and brought up, the
# documented first run, a campaign on the agent container, the worker killed mid-point and resumed; each stage timed.
compose-test:
	scripts/install-deps.sh compose
	.venv/bin/python scripts/compose/compose_test.py

compose-check:
	if docker compose version >/dev/null 2>&1; then docker compose config -q; else docker-compose config -q; fi

clean:
	rm -rf .run frontend/dist simulator/bin

# A review of the report on a DNS server from Debian that the lab does not run (NSD, as its package ships it), swept
# past its capacity through the API: prints the raw points beside the knee, ceiling and bottleneck statements.
.PHONY: review-debian-dns
review-debian-dns:
	scripts/install-deps.sh review
	KB_REVIEW=1 .venv/bin/pytest -q -s -p no:cacheprovider tests/integration/test_review_debian_dns.py
