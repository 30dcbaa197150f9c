"""How many job listings one client may have in flight at once (LPS_LISTING_CONCURRENCY, per gateway process).

A listing is the gateway's most expensive read: a page that filters on the way walks up to LISTING_WALK (2,000) index
keys and jobs, on MongoDB as on any store. Ten listings in flight from one client would hold ten of the gateway's
pooled MongoDB connections and the server's work for as long, and every other client's job lookups would wait behind
them (measured on the embedded store, which serves one command at a time: 59 of 200 answers timed out). So one
client (its API key's name, the dashboard's signed-in key, or its address without keys) holds at most this many
listing slots; past them it is answered 429 with `Retry-After: 1` at once, before any query, and everyone else keeps
the store. It protects MongoDB's connection pool and the gateway's share of it, not only the embedded store.
"""

from __future__ import annotations

import contextlib
from collections import Counter
from collections.abc import Iterator

from schemas.codes import ErrorType
from service.errors import ApiError


class ListingSlots:
    def __init__(self, per_client: int) -> None:
        self._per_client = per_client
        self._in_flight: Counter[str] = Counter()

    @contextlib.contextmanager
    def taken(self, client: str) -> Iterator[None]:
        """Hold one of the client's slots for the block; ApiError 429 when it has none left."""
        if self._in_flight[client] >= self._per_client:
            raise ApiError(
                ErrorType.HTTP_TO_MANY_REQUEST,
                f"at most {self._per_client} job listings at once per client; retry when one has ended",
                headers={"Retry-After": "1"},
            )
        self._in_flight[client] += 1
        try:
            yield
        finally:
            self._in_flight[client] -= 1
            if not self._in_flight[client]:
                del self._in_flight[client]  # memory bounded by the listings in flight, not by clients ever seen
