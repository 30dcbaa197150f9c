"""Tests that start real processes: worker pools, the CLI, `lps dev`, RabbitMQ nodes (`make test` only)."""
