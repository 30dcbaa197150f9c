"""Price sanity: a price far below what the product costs is a part, a deposit or a bait, not the product.

Two kinds of evidence say what the product costs:
- the back office's `target_price`: an offer under `SUSPICIOUS_PRICE_PERCENT` of it is refused;
- without a target price and a model number, the offers themselves: when most accepted offers cluster around a price
  (`cluster_price`), an offer under `ACCESSORY_PRICE_PERCENT` of it is "priced like an accessory". A device's parts
  are named after the device ("… S펜", "… 리모컨", "… 탬퍼"), with nouns no list holds; their price gives them away.
  A target price or a model number found in the title is evidence enough, so the cluster is not consulted then.
"""

from __future__ import annotations

from statistics import median

#: An offer under this share of the target price is almost never the product itself: it is an accessory or a
#: single part, a monthly rental fee, a deposit or a bait price. 30 % still lets deep genuine sales through.
SUSPICIOUS_PRICE_PERCENT = 30
#: An offer under this share of the price the accepted offers cluster around is priced like an accessory. Parts of a
#: device ask 1–20 % of it; a genuine sale of the product rarely goes below 50 %, a different pack size of a
#: consumable rarely below 25 %.
ACCESSORY_PRICE_PERCENT = 25
#: A cluster: prices within this factor of each other …
CLUSTER_SPREAD = 2
#: … held by at least this many offers, and by at least half of the accepted ones: two listings agreeing on a
#: price beside a third far under it are evidence enough (a device twice, its part once).
CLUSTER_MIN_OFFERS = 2


def against_target(price: int, target_price: int | None) -> str | None:
    if price <= 0:
        return "no price"  # a parse gap, and it would otherwise always be the lowest
    if target_price and price * 100 < target_price * SUSPICIOUS_PRICE_PERCENT:
        return f"price {price:,} is under {SUSPICIOUS_PRICE_PERCENT}% of target {target_price:,}"
    return None


def cluster_price(prices: list[int]) -> int | None:
    """The median of the densest group of prices within a factor of `CLUSTER_SPREAD`, when it holds at least
    `CLUSTER_MIN_OFFERS` and at least half of the prices; None when the prices do not cluster. Of two groups as dense,
    the dearer one: cheap parts beside a device must not make the device's cluster look like the outlier."""
    ordered = sorted(prices)
    best: tuple[int, int] | None = None  # (count, first index)
    end = 0
    for first, low in enumerate(ordered):
        end = max(end, first)
        while end + 1 < len(ordered) and ordered[end + 1] <= low * CLUSTER_SPREAD:
            end += 1
        count = end - first + 1
        if best is None or count >= best[0]:
            best = (count, first)
    if best is None or best[0] < CLUSTER_MIN_OFFERS or best[0] * 2 < len(ordered):
        return None
    count, first = best
    return int(median(ordered[first : first + count]))


def priced_like_an_accessory(price: int, cluster: int) -> str | None:
    if price * 100 < cluster * ACCESSORY_PRICE_PERCENT:
        share = f"{ACCESSORY_PRICE_PERCENT}% of the {cluster:,} most offers ask"
        return f"priced like an accessory: {price:,} is under {share}"
    return None
