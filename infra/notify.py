"""Whether a watch's result is delivered: decided here and nowhere else (the outbox asks before each delivery)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from schemas.watches import Notify


@dataclass(frozen=True, slots=True)
class Verdict:
    deliver: bool
    #: Why: `first`, `changed`, `always`, `crossed_below` when delivered; `unchanged`, `not_below`,
    #: `still_below`, `superseded` (a newer result was judged already) when skipped.
    reason: str


def seen_of(search: dict[str, Any], target_price: int | None) -> dict[str, Any]:
    """What the decision compares of a finished search: its outcome, lowest price and lowest offer, and what the result
    says leaves that lowest in doubt."""
    result = search.get("result") or {}
    lowest = result.get("lowest") or {}
    price = lowest.get("price")
    seen: dict[str, Any] = {
        "job_id": search["_id"],
        "finished_at": search.get("finished_at"),
        "outcome": result.get("outcome"),
        "lowest_price": price,
        "lowest_offer": {key: lowest[key] for key in ("source", "product_id", "url") if key in lowest} or None,
        "doubts": result.get("doubts") or None,
    }
    if target_price is not None:
        seen["below_target"] = price is not None and price < target_price
    return seen


def _signature(seen: dict[str, Any] | None) -> tuple[Any, ...] | None:
    if seen is None:
        return None
    # A result recorded before doubts were compared has none, as a result without doubts has.
    doubts = tuple(sorted(seen.get("doubts") or ()))
    return (seen.get("outcome"), seen.get("lowest_price"), seen.get("lowest_offer"), doubts)


def _after(a: datetime | None, b: datetime | None) -> bool:
    return a is None or b is None or a >= b


def decide_delivery(
    notify: Notify,
    *,
    current: dict[str, Any],
    last_seen: dict[str, Any] | None,
    last_delivered: dict[str, Any] | None,
    last_above_at: datetime | None = None,
) -> Verdict:
    """Deliver `current` (from `seen_of`)?

    - always: yes;
    - on_change: when the outcome, the lowest price, the lowest offer or what leaves it in doubt (`result.doubts`)
      differs from the last delivered result (the first result is always delivered): a price now said to be in
      doubt, or no longer, is news to the receiver as a new price is;
    - below_target: when the lowest price is below target_price and no result below it was delivered since the
      last one at or above it (`last_above_at`: when the newest such result finished) — once per crossing.

    Both compare with what the receiver took (`last_delivered` is recorded after its 2xx): a crossing or change
    whose delivery failed is not lost, the next result carries it. A result older than the last one judged (a
    delivery retried after a newer search's) is skipped: it would report a market that has moved on.
    """
    if last_seen is not None and not _after(current.get("finished_at"), last_seen.get("finished_at")):
        return Verdict(False, "superseded")
    if notify is Notify.ALWAYS:
        return Verdict(True, "always")
    if notify is Notify.ON_CHANGE:
        if last_delivered is None:
            return Verdict(True, "first")
        if _signature(current) != _signature(last_delivered):
            return Verdict(True, "changed")
        return Verdict(False, "unchanged")
    if not current.get("below_target"):
        return Verdict(False, "not_below")
    if last_delivered is not None and last_delivered.get("below_target"):
        delivered_at = last_delivered.get("finished_at")
        if last_above_at is None or (delivered_at is not None and last_above_at <= delivered_at):
            return Verdict(False, "still_below")
    return Verdict(True, "crossed_below")
