"""Search sources behind one small interface: `await source.search(product) -> SourceResult`.

A source answers FOUND or NO_RESULTS, or raises a SourceError saying how it failed. `held_back()` says, before its
fleet-wide turn is taken, that this process cannot search it now at all (every Coupang proxy benched).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol
from urllib.parse import urlsplit

from actors.errors import RetryableJobError
from schemas.offers import Offer, SourceOutcome, SourceResult


class Source(Protocol):
    @property
    def name(self) -> str: ...

    async def search(self, product: dict[str, Any]) -> SourceResult: ...

    def held_back(self) -> SourceError | None: ...


def own_url(url: str | None, hosts: Iterable[str]) -> str | None:
    """`url` when it is an http(s) address on one of `hosts` (or a subdomain of one), else None.

    A scraped link is passed on to back offices, deliveries and dashboards, so only one that leads where the
    source's offers live is kept: never `javascript:`, `data:` or another site's address. The offer itself stays
    usable without it."""
    try:
        parts = urlsplit(url or "")
        host = (parts.hostname or "").lower()
    except ValueError:  # e.g. an unbalanced "[" read as an IPv6 host
        return None
    if parts.scheme.lower() not in {"http", "https"} or not host:
        return None
    return url if any(host == own or host.endswith(f".{own}") for own in hosts) else None


class SourceError(RetryableJobError):
    """A source failed to answer; the search is retried when every source of the job failed."""

    outcome = SourceOutcome.ERROR

    def __init__(
        self,
        message: str,
        *,
        snapshot: str | None = None,
        backoff_factor: float = 1.0,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(
            message,
            error_type=str(self.outcome),
            snapshot=snapshot,
            backoff_factor=backoff_factor,
            retry_after=retry_after,
        )


class SourceBlocked(SourceError):
    """The site refused us (403, Access Denied, maintenance): wait longer, never try to get around it."""

    outcome = SourceOutcome.BLOCKED


class SourceRateLimited(SourceError):
    """The API's quota or burst limit was hit (HTTP 429)."""

    outcome = SourceOutcome.RATE_LIMITED


class SourceParseFailed(SourceError):
    """The page's shape was not understood."""

    outcome = SourceOutcome.PARSE_FAIL


class SourceDeferred(SourceError):
    """The source's turn did not come (pacing, an open circuit breaker) in an attempt that failed for another
    source: it runs again with the failed ones (alone, such a search is deferred without costing an attempt)."""

    outcome = SourceOutcome.DEFERRED


class SourceTimeout(SourceError):
    outcome = SourceOutcome.TIMEOUT


def answer(source: str, offers: list[Offer], *, skipped: int = 0, unread: SourceError | None = None) -> SourceResult:
    """A source's answer, FOUND or NO_RESULTS, and the one rule of when it is complete: not when part of it was not
    read, `unread` saying why (a later page refused), else when it listed items whose price or id it could not read
    (`skipped`: their prices may be lower than every price read)."""
    incomplete = unread
    if incomplete is None and skipped:
        incomplete = SourceParseFailed(
            f"{source}: {skipped} item(s) without a readable price or id; the lowest may be among them"
        )
    outcome = SourceOutcome.FOUND if offers else SourceOutcome.NO_RESULTS
    return SourceResult(outcome, offers, skipped=skipped, incomplete=incomplete)
