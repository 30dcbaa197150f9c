"""How a setting's value is written in the environment: a comma-separated list, a map of `NAME=VALUE` pairs."""

from __future__ import annotations


def parse_map(text: str) -> dict[str, str]:
    """`"A=1, B=2"` -> {"A": "1", "B": "2"}."""
    pairs = (item.split("=", 1) for item in text.split(",") if item.strip())
    return {key.strip(): value.strip() for key, value in pairs}


def parse_list(text: str) -> tuple[str, ...]:
    return tuple(item.strip() for item in text.split(",") if item.strip())
