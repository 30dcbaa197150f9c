"""Tests that start real processes: worker pools, the CLI, `lps dev`, RabbitMQ nodes, a Chromium of their own
(`make test` only)."""
