.PHONY: test test-fast test-unit test-mongo run demo lint

# The whole test suite on a fresh machine (this is what CI runs).
test:
	scripts/test

# The inner loop (tests/conftest.py marks each test's tier; a fast-tier test that starts a process fails):
# pure units, no servers needed.
test-unit:
	scripts/bootstrap && .venv/bin/pytest -m unit -q

# Lint, types, then the units and the in-process tests against the wire store and RabbitMQ: no worker pools,
# no CLI processes, no browser.
test-fast:
	scripts/test -m "not processes" -q

# The integration and process tiers, then the store-bound benchmarks, against a real MongoDB (a replica set, as
# docker-compose starts it): `docker compose up -d mongo`, then
# LPS_MONGO_URL='mongodb://127.0.0.1:27017/?directConnection=true' make test-mongo (docs/testing.md).
test-mongo:
	@test -n "$$LPS_MONGO_URL" || { echo "make test-mongo: set LPS_MONGO_URL to a MongoDB replica set (docs/testing.md)" >&2; exit 2; }
	scripts/test -m "not unit" -rs
	.venv/bin/python -m bench --only enqueue,pipeline,growth --no-markdown --json bench/results/mongodb.json

# The whole stack on this machine (embedded MongoDB unless LPS_MONGO_URL, RabbitMQ, gateway, pools, reconciler).
run:
	scripts/bootstrap && .venv/bin/lps dev

# The same plus the demo shop and a receiver: searches the demo catalogue, prints the results, exits.
demo:
	scripts/bootstrap && .venv/bin/lps dev --demo

lint:
	scripts/bootstrap && .venv/bin/ruff check . && .venv/bin/ruff format --check . && .venv/bin/mypy
