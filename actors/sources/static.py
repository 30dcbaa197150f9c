"""`static`: a deterministic local source for tests and benchmarks (no network).

Offers are derived from the keyword alone, so the same product always gets the same answer. With
LPS_TEST_DIRECTIVES=1 (tests only; off by default) a few directives in the keyword make it misbehave on
purpose, for tests of the retry engine: `#fail` (retryable error), `#blocked`, `#fatal` (non-retryable),
`#empty` (no results), `#slow=SECONDS`, `#crash` (the worker process dies mid-attempt). Off, they are
ordinary keyword text.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import re
from typing import Any

from actors.errors import PermanentJobError
from actors.sources import SourceBlocked, SourceError
from schemas.offers import Delivery, Offer, SourceName, SourceOutcome, SourceResult

_SLOW = re.compile(r"#slow=(\d+(?:\.\d+)?)")


class StaticSource:
    name = SourceName.STATIC

    def __init__(self, blocked_backoff_factor: float = 1.0, *, test_directives: bool = False) -> None:
        self._blocked_backoff_factor = blocked_backoff_factor
        self._test_directives = test_directives

    def held_back(self) -> None:
        return None  # nothing in this process stops it from searching

    async def search(self, product: dict[str, Any]) -> SourceResult:
        keyword: str = product["keyword"]
        if self._test_directives:
            await self._misbehave(keyword)
        if self._test_directives and "#empty" in keyword:
            return SourceResult(SourceOutcome.NO_RESULTS, [])
        return SourceResult(SourceOutcome.FOUND, self.offers_for(keyword))

    async def _misbehave(self, keyword: str) -> None:
        """The directives of a test keyword (LPS_TEST_DIRECTIVES only)."""
        if slow := _SLOW.search(keyword):
            await asyncio.sleep(float(slow.group(1)))
        if "#crash" in keyword:
            os._exit(70)  # what a segfaulting browser looks like to the broker: no ack, no goodbye
        if "#fatal" in keyword:
            raise PermanentJobError("static source: asked to fail for good", error_type="INVALID_PRODUCT")
        if "#blocked" in keyword:
            raise SourceBlocked("static source: asked to act blocked", backoff_factor=self._blocked_backoff_factor)
        if "#fail" in keyword:
            raise SourceError("static source: asked to fail")

    @staticmethod
    def offers_for(keyword: str) -> list[Offer]:
        """Five offers around a keyword-derived base price: the cheapest is an ad, the next sold out."""
        # Prices depend on the product, not on how slowly a test asked for it.
        product = _SLOW.sub("", keyword).strip()
        seed = int.from_bytes(hashlib.sha256(product.encode()).digest()[:4])
        base = 10_000 + seed % 90_000 // 10 * 10
        digest = hashlib.sha256(product.encode()).hexdigest()[:8]
        offers = []
        for rank, (step, is_ad, sold_out, delivery) in enumerate(
            [
                (-2_000, True, False, Delivery.GENERAL),
                (-1_000, False, True, Delivery.ROCKET),
                (0, False, False, Delivery.ROCKET),
                (1_500, False, False, Delivery.GENERAL),
                (3_000, False, False, Delivery.ROCKET_SELLER),
            ]
        ):
            offers.append(
                Offer(
                    source=SourceName.STATIC,
                    title=f"{keyword} {rank + 1}",
                    price=base + step,
                    url=f"https://static.invalid/products/{digest}-{rank}",
                    product_id=f"{digest}-{rank}",
                    delivery=delivery,
                    sold_out=sold_out,
                    is_ad=is_ad,
                )
            )
        return offers
