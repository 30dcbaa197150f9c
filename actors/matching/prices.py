"""Price sanity: a price far below what the product costs is a part, a deposit or a bait, not the product.

Two kinds of evidence say what the product costs:
- the back office's `target_price`: an offer under `SUSPICIOUS_PRICE_PERCENT` of it is refused;
- without a target price, the offers themselves: when most accepted offers cluster around a price
  (`cluster_price`), an offer under `ACCESSORY_PRICE_PERCENT` of it is "priced like an accessory". A device's parts
  are named after the device ("… S펜", "… 리모컨", "… 탬퍼"), with nouns no list holds; their price gives them away.
  A target price is evidence enough, so the cluster is not consulted then; a model number is not (a part's title
  carries it too: "LS32CG510E 리모컨").
"""

from __future__ import annotations

from dataclasses import dataclass
from statistics import median

#: An offer under this share of the target price is almost never the product itself: it is an accessory or a
#: single part, a monthly rental fee, a deposit or a bait price. 30 % still lets deep genuine sales through.
SUSPICIOUS_PRICE_PERCENT = 30
#: An offer under this share of the price the accepted offers cluster around is priced like an accessory. Parts of a
#: device ask 1–20 % of it; a genuine sale of the product rarely goes below 50 %. Offers of another pack size are
#: compared per unit (`priced_like_an_accessory`).
ACCESSORY_PRICE_PERCENT = 25
#: A cluster: prices within this factor of each other (a device's editions and bundles) …
CLUSTER_SPREAD = 3
#: … held by at least this many offers, and by at least half of the accepted ones: two listings agreeing on a
#: price beside a third far under it are evidence enough (a device twice, its part once).
CLUSTER_MIN_OFFERS = 2
#: An offer whose title says it sells something without something else ("(시트 별매)", "(날 미포함)") under this
#: share of the price the product's offers cluster around is a part sold alone: the corpus's frames and handles sold
#: without their seat or blade asked 40-65 % of it, while a camera "메모리카드 별매" or a racket "스트링 미포함" asks
#: what the others ask.
PART_ALONE_PERCENT = 70
#: A title the model number given lets off the keyword's words that does not write the keyword's kind (its last noun)
#: under this share of the cluster's price is a part naming the model number (an inner pot, a label tape): half, as
#: for a doubt, since a product that leaves its kind out at a sale or as an import asks 58-67 % (a reviewer's: "HP
#: LaserJet Pro M404dn" at 64 %, "[해외직구] … VS20A956A3" at 64 %, a "블랙프라이데이" sale at 61 %).
KIND_LEFT_OUT_PERCENT = 50
#: A lowest under this share of the price the accepted offers cluster around is delivered, but in doubt
#: (`doubt_about_the_lowest`): on the corpus every bait listing and look-alike at a third of the others fell between
#: 25 % and 40 %, and so did genuine offers (a single unit beside packs, an outlet's sale), so the price alone cannot
#: refuse it (a band that did was taken back), but the result can say so. Half, not 40 %: a bait at 43 % of every
#: other seller's price (the seventeenth reader's AirPods Max) went unsaid.
DOUBT_PERCENT = 50
#: A lowest under `DOUBT_PERCENT` of the cluster that is also alone there, the next accepted offer asking at least
#: this many times its price, is passed over (`priced_alone_far_under`): a bait, a part or a look-alike stands alone,
#: though a time deal or last season's stock may too (a reviewer's: those are passed over, and the result says so).
#: On the held-out corpus it answered eight more cases and lost none (1.5 answered the same).
ALONE_RATIO = 2


def against_target(price: int, target_price: int | None) -> str | None:
    if price <= 0:
        return "no price"  # a parse gap, and it would otherwise always be the lowest
    if target_price and price * 100 < target_price * SUSPICIOUS_PRICE_PERCENT:
        return f"price {price:,} is under {SUSPICIOUS_PRICE_PERCENT}% of target {target_price:,}"
    return None


@dataclass(frozen=True, slots=True)
class Cluster:
    """The densest group of prices: its median, and its cheapest and dearest price."""

    price: int
    low: int
    high: int

    def holds(self, price: int) -> bool:
        return self.low <= price <= self.high


def cluster_of(prices: list[int]) -> Cluster | None:
    """The densest group of prices within a factor of `CLUSTER_SPREAD`, when it holds at least `CLUSTER_MIN_OFFERS`
    and at least half of the prices; None when the prices do not cluster. Of two groups as dense, the dearer one:
    cheap parts beside a device must not make the device's cluster look like the outlier."""
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
    group = ordered[first : first + count]
    return Cluster(int(median(group)), group[0], group[-1])


def cluster_price(prices: list[int]) -> int | None:
    """The price the offers cluster around (`cluster_of`), or None."""
    cluster = cluster_of(prices)
    return cluster.price if cluster else None


def _per_unit(price: int, units: tuple[int, int] | None) -> int:
    """The price for the cluster's usual pack count (`units`: the offer's pack count, the cluster's): one bottle
    beside packs of 24 is compared as 24 of it."""
    return price * units[1] // units[0] if units else price


def priced_like_an_accessory(price: int, cluster: int, units: tuple[int, int] | None = None) -> str | None:
    """Whether a price is far under the cluster's, another pack size per unit (`_per_unit`): one bottle beside packs
    of 24 is not a part."""
    if _per_unit(price, units) * 100 < cluster * ACCESSORY_PRICE_PERCENT:
        share = f"{ACCESSORY_PRICE_PERCENT}% of the {cluster:,} most offers ask"
        return f"priced like an accessory: {price:,} is under {share}"
    return None


def priced_without_a_part(
    price: int, cluster: int, without: str | None, units: tuple[int, int] | None = None
) -> str | None:
    """Whether an offer whose title says it sells something without something else (`without`: its words) asks so
    far under the cluster's price, another pack size per unit, that it is a part sold alone."""
    return _a_part_alone(price, cluster, without, PART_ALONE_PERCENT, units)


def priced_without_its_kind(
    price: int, cluster: int, kind_left_out: str | None, units: tuple[int, int] | None = None
) -> str | None:
    """Whether an offer whose title leaves out the keyword's kind where the model number given lets it (`kind_left_out`:
    the kind) asks so far under the cluster's price, another pack size per unit, that it is a part naming the model
    number."""
    return _a_part_alone(price, cluster, f"no {kind_left_out}" if kind_left_out else None, KIND_LEFT_OUT_PERCENT, units)


def _a_part_alone(
    price: int, cluster: int, said: str | None, percent: int, units: tuple[int, int] | None
) -> str | None:
    """The verdict on an offer whose title says what makes it a part (`said`), asking under `percent` of the cluster's
    price, another pack size per unit; None when it says nothing so or asks more."""
    compared = _per_unit(price, units)
    if said is None or compared * 100 >= cluster * percent:
        return None
    return f"a part alone: {said}, at {compared * 100 // cluster}% of the {cluster:,} most offers ask"


def doubt_about_the_lowest(accepted_prices: list[int], *, packs_differ: bool = False) -> str | None:
    """What leaves the lowest of the accepted offers in doubt: it is far under the price the accepted offers cluster
    around (under `DOUBT_PERCENT` of it), where a bait listing, a look-alike or a part whose noun no rule knows would
    be; or, where they cluster around no price, far under what some of them agree on (under
    `ACCESSORY_PRICE_PERCENT` of it): parts nobody listed outnumbering the product (brushes, cups and a lid beside two
    juicers) leave no cluster to refuse them by. None when nothing does. The offer was accepted and stays the lowest;
    the result says what a person should look at. `packs_differ`: the offers count their packs differently, which
    explains a gap where they cluster around no price (one pouch beside packs of 12 to 48), so they do not disagree."""
    lowest = min(accepted_prices, default=0)
    if (cluster := cluster_price(accepted_prices)) is not None:
        if (share := _share_far_under(lowest, cluster)) is None:
            return None
        return f"priced far under the others: the lowest, {lowest:,}, is {share}% of the {cluster:,} most offers ask"
    agreed = None if packs_differ else _dearest_agreement(accepted_prices)
    if agreed is None or lowest * 100 >= agreed * ACCESSORY_PRICE_PERCENT:
        return None
    share = lowest * 100 // agreed
    return f"the offers disagree: the lowest, {lowest:,}, is {share}% of the {agreed:,} others agree on"


def priced_alone_far_under(accepted_prices: list[int], *, packs_differ: bool = False) -> str | None:
    """What passes the lowest of the accepted offers over (`accepted_prices`, cheapest first): under `DOUBT_PERCENT`
    of the price they cluster around, and under 1/`ALONE_RATIO` of the next offer's: no seller asks anywhere near
    it, as bait listings, parts whose noun no rule knows and look-alikes stand ("a new, sealed" AirPods Max at 43 %,
    an inner pot). None when another offer comes near it, or nothing clusters, or the offers count their packs
    differently (`packs_differ`: one bottle beside cases of 24 explains the gap)."""
    if packs_differ or len(accepted_prices) < 2 or accepted_prices[1] < accepted_prices[0] * ALONE_RATIO:
        return None
    lowest, cluster = accepted_prices[0], cluster_price(accepted_prices)
    if cluster is None or (share := _share_far_under(lowest, cluster)) is None:
        return None
    return (
        f"priced alone far under the others: the lowest, {lowest:,}, is {share}% of the {cluster:,} most offers ask, "
        f"and no other offer asks under {lowest * ALONE_RATIO:,}"
    )


def _share_far_under(lowest: int, cluster: int) -> int | None:
    """The lowest price's share (whole percent) of the price the prices cluster around, when it is under
    `DOUBT_PERCENT` of it; None otherwise."""
    return None if lowest * 100 >= cluster * DOUBT_PERCENT else lowest * 100 // cluster


def _dearest_agreement(prices: list[int]) -> int | None:
    """The median of the dearest group of at least `CLUSTER_MIN_OFFERS` prices within `CLUSTER_SPREAD` of each other,
    however few of all the prices it holds; None when no two prices agree."""
    ordered = sorted(prices, reverse=True)
    for first, high in enumerate(ordered):
        group = [price for price in ordered[first:] if price * CLUSTER_SPREAD >= high]
        if len(group) >= CLUSTER_MIN_OFFERS:
            return int(median(group))
    return None
