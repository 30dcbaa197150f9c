"""Operator tools and dev stand-ins: the `lps` CLI, the dev stack, the demo shop, the embedded MongoDB."""
