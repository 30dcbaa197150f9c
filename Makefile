.PHONY: test run demo lint

# The whole test suite on a fresh machine (this is what CI runs).
test:
	scripts/test

# The whole stack on this machine (embedded MongoDB unless LPS_MONGO_URL, RabbitMQ, gateway, pools, reconciler).
run:
	scripts/bootstrap && .venv/bin/lps dev

# The same plus the demo shop and a receiver: searches the demo catalogue, prints the results, exits.
demo:
	scripts/bootstrap && .venv/bin/lps dev --demo

lint:
	scripts/bootstrap && .venv/bin/ruff check . && .venv/bin/ruff format --check . && .venv/bin/mypy
