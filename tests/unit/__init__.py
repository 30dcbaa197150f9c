"""Pure units: no store, no broker, no process (`make test-unit`, `pytest -m unit`)."""
