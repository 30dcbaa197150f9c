.PHONY: test run lint

# The whole test suite on a fresh machine (this is what CI runs).
test:
	scripts/test

# The gateway, with the embedded MongoDB-compatible server when LPS_MONGO_URL is unset.
run:
	scripts/bootstrap && .venv/bin/lps ensure-rabbitmq && .venv/bin/lps gateway

lint:
	scripts/bootstrap && .venv/bin/ruff check . && .venv/bin/ruff format --check .
