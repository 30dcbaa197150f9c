"""A search attempt's stand-ins, in memory: sources that answer from a script, each source's turn scripted, and the
attempt run as a worker runs it."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from actors.errors import JobError
from actors.search import work_search
from actors.sources import SourceError
from infra.lifecycle import RetryPolicy
from infra.settings import Settings
from infra.source_limits import Deferral, Ticket
from schemas.offers import Offer, SourceOutcome, SourceResult

NOW = datetime(2026, 1, 1, tzinfo=UTC)


POLICY = RetryPolicy(1.0, 10.0)


class Scripted:
    """A source that answers from a script and counts its searches."""

    def __init__(self, name: str, answer: SourceResult | Exception, held_back: SourceError | None = None) -> None:
        self.name = name
        self.answer = answer
        self.searches = 0
        self._held_back = held_back

    def held_back(self) -> SourceError | None:
        return self._held_back

    async def search(self, product: dict[str, Any]) -> SourceResult:
        self.searches += 1
        if isinstance(self.answer, Exception):
            raise self.answer
        return self.answer


class Gates:
    """Each source's turn, scripted: granted, or deferred for the named sources; hands-back are recorded."""

    def __init__(self, defer: dict[str, float] | None = None) -> None:
        self.defer = defer or {}
        self.acquired: list[str] = []
        self.released: list[tuple[str, bool]] = []

    async def acquire(self, source: str) -> Ticket | Deferral:
        self.acquired.append(source)
        if source in self.defer:
            return Deferral(source, "rate 1/m reached", retry_in=self.defer[source])
        return Ticket(source, "holder")

    async def release(self, ticket: Ticket, *, blocked: bool) -> None:
        self.released.append((ticket.source, blocked))


class Runtime:
    def __init__(self, *sources: Scripted, gates: Gates | None = None) -> None:
        self.sources = {source.name: source for source in sources}
        self.settings = Settings(search_sources=tuple(self.sources))
        self.gates = gates or Gates()


def found(source: str, price: int) -> SourceResult:
    return SourceResult(SourceOutcome.FOUND, [Offer(source=source, title="widget", price=price, url="https://x")])


def search_job(attempts: int = 1, max_attempts: int = 3, **fields: Any) -> dict[str, Any]:
    return {"_id": "j", "product_code": "P1", "product": {"keyword": "widget"}, "attempts": attempts,
            "max_attempts": max_attempts, **fields}  # fmt: skip


async def attempt(job: dict[str, Any], runtime: Runtime) -> dict[str, Any] | JobError:
    try:
        return await work_search(job, runtime)  # type: ignore[arg-type]
    except JobError as error:
        return error
