"""Benchmarks (not tests): `python -m bench` measures LPS against raw baselines on this machine."""
