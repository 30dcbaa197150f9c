"""The test tiers and where their tests live: each tier has its folder under tests/, so a test's file says what it
costs to run. tests/conftest.py gives each test its tier and refuses, at collection, a test outside its folder."""

from __future__ import annotations

#: Each tier, as its mark's help says it.
TIERS = {
    "unit": "pure units: no store, no broker, no process (make test-unit)",
    "integration": "in-process against the wire store and RabbitMQ (make test-fast runs these and the units)",
    "processes": "starts real processes or a browser: worker pools, the CLI, lps dev, Chromium (make test only)",
}


def folder_of(tier: str, uses_browser: bool) -> str:
    """The folder under tests/ of a test of `tier`: the processes tier's tests that look at pages (the `browser`
    fixture) live in browser/, apart from its other ones; every other test in its tier's folder."""
    if tier not in TIERS:
        raise ValueError(f"no such tier: {tier!r} (one of {', '.join(TIERS)})")
    if uses_browser and tier != "processes":
        raise ValueError(f"a browser test is in the processes tier, not in {tier!r}")
    return "browser" if uses_browser else tier
