"""Each source's fleet-wide pace as settings write it: LPS_SOURCE_RATES (`coupang=2/s`) and LPS_SOURCE_CONCURRENCY
(`coupang=4`). The limiters that keep them are in `infra.source_limits`."""

from __future__ import annotations

import re
from dataclasses import dataclass

from schemas.offers import SourceName


@dataclass(frozen=True, slots=True)
class Rate:
    """`limit` searches per `unit` (s or m) of one source, for the whole fleet (LPS_SOURCE_RATES)."""

    limit: int
    unit: str = "s"

    @property
    def period(self) -> float:
        """The window's length in seconds."""
        return _RATE_UNITS[self.unit]

    def __str__(self) -> str:
        return f"{self.limit}/{self.unit}"


_RATE_UNITS = {"s": 1.0, "m": 60.0}


_RATE = re.compile(r"([0-9]+)\s*/\s*([sm])")


#: The most searches one window may hold: the limiter keeps one timestamp per search of the window.
MAX_RATE_LIMIT = 1000


def _source_items(text: str) -> list[tuple[str, str]]:
    """`"coupang=2/s, naver=10/s"` -> [("coupang", "2/s"), ("naver", "10/s")], every source known and named once."""
    items: list[tuple[str, str]] = []
    for item in (part.strip() for part in text.split(",")):
        if not item:
            continue
        source, equals, value = item.partition("=")
        source, value = source.strip(), value.strip()
        if not equals or not source or not value:
            raise ValueError(f"{item!r} is not SOURCE=VALUE")
        if source not in _SOURCE_NAMES:
            raise ValueError(f"{item!r}: unknown source {source!r} (known: {', '.join(_SOURCE_NAMES)})")
        if any(source == seen for seen, _ in items):
            raise ValueError(f"{item!r}: {source} is given twice")
        items.append((source, value))
    return items


def parse_source_rates(text: str) -> dict[str, Rate]:
    """LPS_SOURCE_RATES: `coupang=2/s,naver=10/s` (COUNT/s or COUNT/m, COUNT a whole number from 1)."""
    rates: dict[str, Rate] = {}
    for source, value in _source_items(text):
        match = _RATE.fullmatch(value)
        if match is None:
            raise ValueError(f"{source}={value!r}: expected COUNT/s or COUNT/m (e.g. {source}=2/s)")
        limit = int(match.group(1))
        if not 1 <= limit <= MAX_RATE_LIMIT:
            raise ValueError(f"{source}={value!r}: COUNT must be 1 to {MAX_RATE_LIMIT} (use /m for slower)")
        rates[source] = Rate(limit, match.group(2))
    return rates


def parse_source_concurrency(text: str) -> dict[str, int]:
    """LPS_SOURCE_CONCURRENCY: `coupang=4` (searches in flight at once, fleet-wide, a whole number from 1)."""
    limits: dict[str, int] = {}
    for source, value in _source_items(text):
        if not re.fullmatch(r"[0-9]+", value) or int(value) < 1:
            raise ValueError(f"{source}={value!r}: expected a whole number of searches from 1 (e.g. {source}=4)")
        limits[source] = int(value)
    return limits


#: Every source a setting may name (LPS_SOURCE_RATES, LPS_SOURCE_CONCURRENCY).
_SOURCE_NAMES = tuple(str(name) for name in SourceName)
