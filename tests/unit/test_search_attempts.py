"""A search attempt over several sources: complete, or say so (pure units: sources stand in memory)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import hypothesis
import hypothesis.strategies as st
import pytest

from actors.errors import JobError, PermanentJobError
from actors.matching import match_offers
from actors.middleware import failure_of
from actors.proxies import ProxiesBenched
from actors.sources import SourceBlocked, SourceError, SourceParseFailed
from infra.lifecycle import decide_after_failure
from infra.source_limits import Deferral, Ticket
from infra.text import analyzer
from schemas.codes import AttemptOutcome, JobErrorType
from schemas.offers import SOURCES_ANSWERED, Offer, SourceOutcome, SourceResult
from tests.search_attempt_fakes import NOW, POLICY, Gates, Runtime, Scripted, attempt, found, search_job

EMPTY = SourceResult(SourceOutcome.NO_RESULTS, [])


async def test_a_blocked_source_beside_an_empty_one_is_retried_never_reported_as_no_results():
    runtime = Runtime(Scripted("coupang", SourceBlocked("403")), Scripted("naver", EMPTY))

    failure = failure_of(await attempt(search_job(attempts=1), runtime))  # type: ignore[arg-type]
    decision = decide_after_failure(search_job(attempts=1), failure, POLICY, NOW)

    assert decision.outcome is AttemptOutcome.RETRY
    assert failure.error_type == "BLOCKED"
    kept = decision.keep[SOURCES_ANSWERED]  # type: ignore[index]
    assert list(kept) == ["naver"]  # what the empty source answered is kept; the blocked one runs again
    assert (kept["naver"]["outcome"], kept["naver"]["offers"]) == ("NO_RESULTS", [])


async def test_a_retry_runs_only_the_sources_that_failed_and_completes_the_result():
    coupang, naver = Scripted("coupang", found("coupang", 900)), Scripted("naver", found("naver", 1_000))
    kept = {
        SOURCES_ANSWERED: {
            "naver": {
                "outcome": "FOUND",
                "count": 1,
                "ms": 5,
                "offers": [found("naver", 1_000).offers[0].as_document()],
            }
        }
    }

    output = await attempt(search_job(attempts=2, **kept), Runtime(coupang, naver))

    assert (coupang.searches, naver.searches) == (1, 0)
    result = output["result"]  # type: ignore[index]
    assert (result["outcome"], result["complete"], result["lowest"]["price"]) == ("FOUND", True, 900)
    assert "failed_sources" not in result
    assert set(result["sources"]) == {"coupang", "naver"}


async def test_when_attempts_run_out_the_job_is_done_incomplete_naming_the_failed_source():
    runtime = Runtime(
        Scripted("coupang", SourceBlocked("403 Access Denied")),
        Scripted("naver", EMPTY),
    )
    job = search_job(attempts=3, max_attempts=3)

    decision = decide_after_failure(job, failure_of(await attempt(job, runtime)), POLICY, NOW)  # type: ignore[arg-type]

    assert decision.outcome is AttemptOutcome.DONE
    result = decision.output["result"]  # type: ignore[index]
    assert (result["outcome"], result["complete"]) == ("INCOMPLETE", False)
    assert result["failed_sources"] == {"coupang": {"type": "BLOCKED", "message": "403 Access Denied"}}


async def test_an_incomplete_search_with_an_eligible_offer_is_found_among_the_sources_that_answered():
    runtime = Runtime(Scripted("coupang", SourceBlocked("403")), Scripted("naver", found("naver", 1_000)))
    job = search_job(attempts=3, max_attempts=3)

    decision = decide_after_failure(job, failure_of(await attempt(job, runtime)), POLICY, NOW)  # type: ignore[arg-type]

    result = decision.output["result"]  # type: ignore[index]
    assert (result["outcome"], result["complete"], result["lowest"]["source"]) == ("FOUND", False, "naver")


async def test_no_source_answering_on_the_last_attempt_is_dead():
    runtime = Runtime(Scripted("coupang", SourceBlocked("403")))
    job = search_job(attempts=3, max_attempts=3)

    decision = decide_after_failure(job, failure_of(await attempt(job, runtime)), POLICY, NOW)  # type: ignore[arg-type]

    assert decision.outcome is AttemptOutcome.DEAD


async def test_a_source_that_cannot_work_is_reported_and_does_not_hold_the_others_back():
    config = PermanentJobError("naver: credentials missing", error_type=JobErrorType.CONFIG)
    runtime = Runtime(Scripted("coupang", found("coupang", 900)), Scripted("naver", config))
    job = search_job(attempts=1, max_attempts=5)

    decision = decide_after_failure(job, failure_of(await attempt(job, runtime)), POLICY, NOW)  # type: ignore[arg-type]

    assert decision.outcome is AttemptOutcome.DONE  # retrying cannot make naver work: done now, and say so
    result = decision.output["result"]  # type: ignore[index]
    assert (result["outcome"], result["complete"]) == ("FOUND", False)
    assert result["failed_sources"]["naver"]["type"] == "CONFIG"


@pytest.mark.parametrize(("answer", "outcome"), [(SourceResult(SourceOutcome.NO_RESULTS, []), "NO_RESULTS")])
async def test_no_results_is_only_claimed_when_every_source_answered(answer: SourceResult, outcome: str):
    output = await attempt(search_job(), Runtime(Scripted("naver", answer), Scripted("coupang", answer)))
    assert (output["result"]["outcome"], output["result"]["complete"]) == (outcome, True)  # type: ignore[index]


async def test_a_job_whose_every_source_is_held_back_is_deferred_not_failed():
    runtime = Runtime(Scripted("coupang", found("coupang", 900)), gates=Gates(defer={"coupang": 2.0}))
    job = search_job(attempts=1, max_attempts=1)

    decision = decide_after_failure(job, failure_of(await attempt(job, runtime)), POLICY, NOW)  # type: ignore[arg-type]

    assert decision.outcome is AttemptOutcome.DEFERRED
    assert decision.keep is None


async def test_a_source_held_back_beside_one_that_failed_runs_again_with_it_and_the_attempt_counts():
    coupang = Scripted("coupang", SourceBlocked("403"))
    runtime = Runtime(coupang, Scripted("naver", EMPTY), gates=Gates(defer={"naver": 1.0}))

    failure = failure_of(await attempt(search_job(attempts=1), runtime))  # type: ignore[arg-type]
    decision = decide_after_failure(search_job(attempts=1), failure, POLICY, NOW)

    assert decision.outcome is AttemptOutcome.RETRY
    assert decision.keep is None  # nothing answered: both run on the next attempt
    assert runtime.gates.released == [("coupang", True)]  # the breaker hears of the block


async def test_when_attempts_run_out_a_held_back_source_is_named_among_the_failed_ones():
    runtime = Runtime(
        Scripted("coupang", SourceBlocked("403")),
        Scripted("naver", found("naver", 1_000)),
        Scripted("static", EMPTY),
        gates=Gates(defer={"static": 1.0}),
    )
    job = search_job(attempts=3, max_attempts=3)

    decision = decide_after_failure(job, failure_of(await attempt(job, runtime)), POLICY, NOW)  # type: ignore[arg-type]

    result = decision.output["result"]  # type: ignore[index]
    assert (decision.outcome, result["complete"]) == (AttemptOutcome.DONE, False)
    assert {name: failed["type"] for name, failed in result["failed_sources"].items()} == {
        "coupang": "BLOCKED",
        "static": "DEFERRED",
    }
    assert result["sources"]["static"]["outcome"] == "DEFERRED"


@pytest.mark.parametrize("known_before_the_turn", [True, False], ids=["benched-before", "benched-while-waiting"])
async def test_a_search_whose_every_proxy_is_benched_is_deferred_without_spending_the_attempt(
    known_before_the_turn: bool,
):
    benched = ProxiesBenched("every Coupang proxy is benched for at least 40 s more", retry_after=40.0)
    coupang = Scripted("coupang", benched, held_back=benched if known_before_the_turn else None)
    gates = Gates()
    job = search_job(attempts=1, max_attempts=1)

    failure = failure_of(await attempt(job, Runtime(coupang, gates=gates)))  # type: ignore[arg-type]
    decision = decide_after_failure(job, failure, POLICY, NOW)

    assert decision.outcome is AttemptOutcome.DEFERRED
    assert decision.run_after is not None
    assert NOW < decision.run_after <= NOW + timedelta(seconds=40)
    if known_before_the_turn:
        # Known before the fleet-wide turn: no pacing token is spent on a search that would not be sent.
        assert (gates.acquired, coupang.searches) == ([], 0)
    else:
        # The last proxy was benched while this search waited: its turn is handed back, not fed to the breaker.
        assert gates.released == [("coupang", False)]


# --- What a retried search keeps: verdicts are judged again, the choice is the one-attempt choice ------------------

#: Offer titles for the keyword "widget 500ml": the product, and what the matcher must refuse.
PRODUCT_TITLES = ("widget 500ml", "widget 500ml new")
REFUSED_TITLES = ("widget 500ml case", "used widget 500ml", "widget 1000ml", "gadget 500ml", "widget 500ml 렌탈")
SOURCES = ("coupang", "naver", "static")


class Attempts:
    """A source that answers differently per attempt: the same offers every time it answers, or the scripted
    failure of that attempt. Each answer is a fresh copy, as a new search's would be."""

    def __init__(self, name: str, offers: list[Offer], failing: set[int]) -> None:
        self.name, self.offers, self.failing, self.attempt = name, offers, failing, 0

    def held_back(self) -> None:
        return None

    async def search(self, product: dict[str, Any]) -> SourceResult:
        if self.attempt in self.failing:
            raise SourceError(f"{self.name} failed in attempt {self.attempt}")
        copies = [Offer(**offer.as_document()) for offer in self.offers]
        return SourceResult(SourceOutcome.FOUND if copies else SourceOutcome.NO_RESULTS, copies)


def source_offers(name: str) -> st.SearchStrategy[list[Offer]]:
    title = st.sampled_from(PRODUCT_TITLES + REFUSED_TITLES)
    offer = st.builds(
        lambda title, price, index: Offer(
            source=name, title=title, price=price, url=f"https://{name}.test/{index}", product_id=f"{name}-{index}"
        ),
        title,
        st.integers(min_value=1_000, max_value=50_000),
        st.integers(min_value=0, max_value=10_000),
    )
    return st.lists(offer, max_size=6, unique_by=lambda offer: offer.product_id)


async def run_until_the_job_ends(sources: dict[str, Attempts], max_attempts: int) -> dict[str, Any] | None:
    """Attempts as the worker runs them (keep, decide_after_failure) until DONE or DEAD; the job's result, None when
    DEAD."""
    product = {"keyword": "widget 500ml", "target_price": 20_000}
    job = {"_id": "j", "product_code": "P1", "product": product, "attempts": 0, "max_attempts": max_attempts}
    runtime = Runtime(*sources.values())  # type: ignore[arg-type]
    while True:
        job["attempts"] += 1
        for source in sources.values():
            source.attempt = job["attempts"]
        output = await attempt(job, runtime)
        if not isinstance(output, JobError):
            return output["result"]
        decision = decide_after_failure(job, failure_of(output), POLICY, NOW)
        if decision.outcome is AttemptOutcome.DONE:
            return decision.output["result"]  # type: ignore[index]
        if decision.outcome is AttemptOutcome.DEAD:
            return None
        job |= decision.keep or {}


@hypothesis.settings(max_examples=150, deadline=None)
@hypothesis.given(
    offers=st.fixed_dictionaries({name: source_offers(name) for name in SOURCES}),
    failing=st.fixed_dictionaries({name: st.sets(st.integers(1, 4), max_size=4) for name in SOURCES}),
    max_attempts=st.integers(1, 4),
)
async def test_a_retried_search_chooses_what_one_attempt_over_the_same_offers_chooses(
    offers: dict[str, list[Offer]], failing: dict[str, set[int]], max_attempts: int
):
    retried = await run_until_the_job_ends(
        {name: Attempts(name, offers[name], failing[name]) for name in SOURCES}, max_attempts
    )
    at_once = await run_until_the_job_ends({name: Attempts(name, offers[name], set()) for name in SOURCES}, 1)
    assert at_once is not None

    if retried is None:  # every source failed in every attempt
        return
    if lowest := retried.get("lowest"):
        (judged,) = match_offers({"keyword": "widget 500ml", "target_price": 20_000}, [Offer(**lowest)])
        assert judged.rejected is None, f"the chosen lowest is an offer the matcher refuses: {judged}"
    if retried["complete"]:
        assert (retried["outcome"], retried.get("lowest")) == (at_once["outcome"], at_once.get("lowest"))
        assert retried["offers"] == at_once["offers"]  # every verdict too
    else:
        answered = set(SOURCES) - set(retried["failed_sources"])
        eligible = [o for o in at_once["offers"] if o["source"] in answered and "rejected" not in o]
        eligible = [o for o in eligible if not o.get("is_ad") and not o.get("sold_out")]
        assert retried.get("lowest", {}).get("price") == min((o["price"] for o in eligible), default=None)


async def test_an_offer_refused_in_the_first_attempt_is_still_refused_after_a_retry():
    accessory = Offer(source="naver", title="widget case", price=500, url="https://n", product_id="acc")
    widget = Offer(source="naver", title="widget", price=9_000, url="https://n", product_id="w")
    coupang, naver = Attempts("coupang", [], failing={1}), Attempts("naver", [accessory, widget], failing=set())

    result = await run_until_the_job_ends({"coupang": coupang, "naver": naver}, max_attempts=3)

    assert result is not None
    assert (result["complete"], result["lowest"]["product_id"]) == (True, "w")
    assert {o["product_id"]: o.get("rejected") for o in result["offers"]} == {"acc": "accessory: case", "w": None}


# --- A source that answered only in part is not complete -----------------------------------------------------------


def partial(source: str, price: int, why: SourceError, skipped: int = 0) -> SourceResult:
    return SourceResult(SourceOutcome.FOUND, found(source, price).offers, skipped=skipped, incomplete=why)


async def test_a_source_that_skipped_items_is_searched_again_and_its_offers_are_not_kept():
    skipped = partial("coupang", 900, SourceParseFailed("coupang: 2 product items unreadable"), skipped=2)
    runtime = Runtime(Scripted("coupang", skipped), Scripted("naver", found("naver", 1_000)))

    failure = failure_of(await attempt(search_job(attempts=1), runtime))  # type: ignore[arg-type]
    decision = decide_after_failure(search_job(attempts=1), failure, POLICY, NOW)

    assert (decision.outcome, failure.error_type) == (AttemptOutcome.RETRY, "PARSE_FAIL")
    assert list(decision.keep[SOURCES_ANSWERED]) == ["naver"]  # type: ignore[index]


async def test_a_source_that_skipped_items_leaves_the_search_incomplete_when_attempts_run_out():
    skipped = partial("coupang", 900, SourceParseFailed("coupang: 2 product items unreadable"), skipped=2)
    runtime = Runtime(Scripted("coupang", skipped), Scripted("naver", found("naver", 1_000)))
    job = search_job(attempts=3, max_attempts=3)

    decision = decide_after_failure(job, failure_of(await attempt(job, runtime)), POLICY, NOW)  # type: ignore[arg-type]

    assert decision.outcome is AttemptOutcome.DONE
    result = decision.output["result"]  # type: ignore[index]
    assert (result["outcome"], result["complete"], result["lowest"]["price"]) == ("FOUND", False, 900)
    assert result["failed_sources"]["coupang"]["type"] == "PARSE_FAIL"
    assert result["sources"]["coupang"] | {"ms": 0} == {
        "outcome": "PARSE_FAIL",
        "count": 1,
        "skipped": 2,
        "ms": 0,
        "error": "coupang: 2 product items unreadable",
    }


async def test_a_block_on_a_later_page_is_handed_back_as_a_block():
    later = partial("coupang", 900, SourceBlocked("coupang page 2 and later not read: 403"))
    runtime = Runtime(Scripted("coupang", later))

    failure = failure_of(await attempt(search_job(attempts=1), runtime))  # type: ignore[arg-type]

    assert failure.error_type == "BLOCKED"
    assert runtime.gates.released == [("coupang", True)]  # the breaker and the adaptive pace hear of it


async def test_a_kept_offer_without_a_link_is_rebuilt_on_a_retry():
    linkless = Offer(source="naver", title="widget", price=1_000, url=None, product_id="n1")
    kept = {SOURCES_ANSWERED: {"naver": {"outcome": "FOUND", "count": 1, "ms": 5, "offers": [linkless.as_document()]}}}
    runtime = Runtime(Scripted("coupang", found("coupang", 2_000)), Scripted("naver", EMPTY))

    output = await attempt(search_job(attempts=2, **kept), runtime)

    assert not isinstance(output, JobError), output
    assert (output["result"]["lowest"]["product_id"], "url" in output["result"]["lowest"]) == ("n1", False)


def offers_of(source: str, *prices: int) -> SourceResult:
    return SourceResult(
        SourceOutcome.FOUND, [Offer(source=source, title="widget", price=price, url="https://x") for price in prices]
    )


async def test_a_lowest_far_under_the_others_that_another_offer_comes_near_is_delivered_saying_it_is_in_doubt():
    """A bait listing or a look-alike at a third of the others passes every rule a title can break; with another
    offer within twice its price it may be a sale, so the result still answers it, and says what a person should
    look at before acting on it."""
    runtime = Runtime(
        Scripted("coupang", offers_of("coupang", 3_000, 5_900, 9_000)), Scripted("naver", found("naver", 9_500))
    )

    output = await attempt(search_job(), runtime)

    result = output["result"]  # type: ignore[index]
    assert result["lowest"]["price"] == 3_000
    assert result["doubts"] == ["priced far under the others: the lowest, 3,000, is 33% of the 9,000 most offers ask"]


async def test_a_lowest_alone_far_under_the_others_is_passed_over_and_the_result_shows_why():
    runtime = Runtime(Scripted("coupang", offers_of("coupang", 3_000, 9_000)), Scripted("naver", found("naver", 9_500)))

    output = await attempt(search_job(), runtime)

    result = output["result"]  # type: ignore[index]
    assert result["lowest"]["price"] == 9_000
    passed = result["offers"][0]
    assert passed["rejected"] == (
        "in doubt beside dearer offers: priced alone far under the others: the lowest, 3,000, is 32% of the 9,250 "
        "most offers ask, and no other offer asks under 6,000"
    )
    # passed over on evidence, not proof: the result says which offer a person should look at
    assert result["doubts"] == [f"cheaper offers passed over: {passed['title']}, 3,000 ({passed['rejected']})"]


@pytest.mark.parametrize(
    "prices",
    [
        (5_000, 9_000, 9_500),  # a deep sale, not far under: over 40 % of the others
        (3_000,),  # alone: nothing to compare it with
        (3_000, 12_000),  # one other offer, far dearer: no cluster to be far under
    ],
)
async def test_a_lowest_near_the_others_or_without_others_is_delivered_without_doubt(prices: tuple[int, ...]):
    runtime = Runtime(
        Scripted("coupang", offers_of("coupang", *prices)),
        Scripted("naver", SourceResult(SourceOutcome.NO_RESULTS, [])),
    )

    output = await attempt(search_job(), runtime)

    assert "doubts" not in output["result"]  # type: ignore[index]


@pytest.mark.parametrize(
    ("warm_up", "first"), [(True, "analyzer loaded"), (False, "naver's turn")], ids=["warming-up", "on-demand"]
)
async def test_a_pool_that_warms_the_analyzer_up_takes_no_sources_turn_before_it_has_loaded(
    monkeypatch: pytest.MonkeyPatch, warm_up: bool, first: str
):
    # Loading holds the interpreter: a turn taken meanwhile would send its request late, bunched with the next.
    # Off (LPS_ANALYZER_WARM_UP), a search does not load it before its turn: one in Latin letters may never need it.
    runtime = Runtime(Scripted("naver", found("naver", 1_000)))
    runtime.settings = runtime.settings.with_overrides(analyzer_warm_up=warm_up)
    order: list[str] = []
    load, acquire = analyzer.load, runtime.gates.acquire

    def loading() -> Any:
        order.append("analyzer loaded")
        return load()

    async def taking(source: str) -> Ticket | Deferral:
        order.append(f"{source}'s turn")
        return await acquire(source)

    monkeypatch.setattr(analyzer, "loaded", lambda: False)  # as in a pool whose warm-up is still running
    monkeypatch.setattr(analyzer, "load", loading)
    monkeypatch.setattr(runtime.gates, "acquire", taking)

    await attempt(search_job(), runtime)

    assert order[0] == first
