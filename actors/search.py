"""SEARCH jobs: ask every source of the product concurrently, pick the lowest eligible offer."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

import dramatiq

from actors import metrics
from actors.errors import DeferredJobError, JobError, PermanentJobError, RetryableJobError
from actors.matching import doubts_about_the_lowest, match_offers, passed_over
from actors.outbox import spawn_outbox
from actors.proxies import ProxiesBenched
from actors.runtime import WorkerRuntime
from actors.sources import Source, SourceBlocked, SourceDeferred, SourceError
from infra.clock import utcnow
from infra.source_limits import Deferral, SourceGates
from infra.text import analyzer
from schemas.codes import JobErrorType
from schemas.envelope import drop_none
from schemas.offers import SOURCES_ANSWERED, Offer, SearchOutcome, SourceOutcome, SourceResult

log = logging.getLogger(__name__)


def eligible(offer: Offer) -> bool:
    """The matcher's verdict, the one place an offer is judged (it refuses ads and sold-out offers too: rule 1)."""
    return offer.rejected is None


def summarize(
    product: dict[str, Any], results: dict[str, SourceResult], failed: dict[str, BaseException], searched_at: Any
) -> dict[str, Any]:
    """The search's `result` over the sources that answered; `complete` only when none failed; `doubts` what the
    matcher says leaves the lowest in doubt for `product`.

    NO_MATCH and NO_RESULTS are final answers, so they are only claimed when every source answered; an
    incomplete search without an eligible offer is INCOMPLETE. Offers of the same price keep the order of `results`
    and of each source's answer, so a tie always goes to the same offer.
    """
    offers = [offer for result in results.values() for offer in result.offers]
    winners = sorted((offer for offer in offers if eligible(offer)), key=lambda offer: offer.price)
    complete = not failed
    if winners:
        outcome = SearchOutcome.FOUND
    elif not complete:
        outcome = SearchOutcome.INCOMPLETE
    elif offers:
        outcome = SearchOutcome.NO_MATCH
    else:
        outcome = SearchOutcome.NO_RESULTS
    return drop_none(
        {
            "outcome": str(outcome),
            "complete": complete,
            "lowest": winners[0].as_document() if winners else None,
            "doubts": doubts_about_the_lowest(product, winners, passed_over(offers)) or None,
            "offers": [offer.as_document() for offer in sorted(offers, key=lambda offer: offer.price)],
            "failed_sources": {name: _failure_summary(error) for name, error in failed.items()} or None,
            "searched_at": searched_at,
        }
    )


def _failure_summary(error: BaseException) -> dict[str, str]:
    if isinstance(error, JobError):
        return {"type": str(error.error_type), "message": error.message[:300]}
    return {"type": str(SourceOutcome.ERROR), "message": f"{type(error).__name__}: {error}"[:300]}


async def _timed(source: Source, product: dict[str, Any]) -> tuple[SourceResult | BaseException, int]:
    started = time.perf_counter()
    try:
        result: SourceResult | BaseException = await source.search(product)
    except Exception as error:
        result = error
    return result, int((time.perf_counter() - started) * 1000)


async def _in_turn(
    name: str, source: Source, product: dict[str, Any], gates: SourceGates
) -> tuple[SourceResult | BaseException | Deferral, int]:
    """The source's search once its fleet-wide turn came (`infra.source_limits`), or the Deferral that says it did
    not come within LPS_SOURCE_WAIT. The turn is taken before the search starts, so a waiting search holds no
    browser page; it is handed back (feeding the circuit breaker) whatever the search did. A source this process
    cannot search now (every proxy benched) is held back like a refused turn, before a turn is spent on it."""
    if (held_back := source.held_back()) is not None:
        return _held_back(name, held_back, waited=0.0), 0
    try:
        turn = await gates.acquire(name)
    except Exception as error:  # MongoDB unreachable: the source fails this attempt, as a network error would
        return error, 0
    if isinstance(turn, Deferral):
        metrics.source_turn(name, "deferred", turn.waited)
        return turn, 0
    metrics.source_turn(name, "probe" if turn.probe else "granted", turn.waited)
    outcome: SourceResult | BaseException = SourceError("the search was interrupted")
    try:
        outcome, ms = await _timed(source, product)
    finally:
        try:
            await gates.release(turn, blocked=_blocked(outcome))
        except Exception:
            # Its slot's lease ends on its own; the breaker misses one outcome.
            log.warning("could not hand back %s's turn", name, exc_info=True)
    if isinstance(outcome, ProxiesBenched):
        # The last free proxy was benched while this search waited for its turn: nothing was sent.
        return _held_back(name, outcome, waited=turn.waited), 0
    return outcome, ms


def _blocked(outcome: SourceResult | BaseException) -> bool:
    """The source refused us, on any page: the breaker and the adaptive pace must hear of it."""
    if isinstance(outcome, SourceResult):
        return isinstance(outcome.incomplete, SourceBlocked)
    return isinstance(outcome, SourceBlocked)


def _held_back(name: str, why: SourceError, *, waited: float) -> Deferral:
    """Nothing was sent: the job is deferred without spending an attempt, as for a refused turn."""
    return Deferral(name, str(why), retry_in=why.retry_after or 0.0, waited=waited)


async def work_search(job: dict[str, Any], runtime: WorkerRuntime) -> dict[str, Any]:
    """One attempt over the sources that have not answered yet.

    Every source answered in full (now or in an earlier attempt): the result, `complete: true`. Some failed, or
    answered only in part (`SourceResult.incomplete`: items it could not read, later pages refused): the attempt
    fails, keeping what the complete answers found, so that `decide_after_failure` retries only the others while
    attempts remain, and otherwise ends the job DONE with `complete: false` (when any source answered, even in part)
    or DEAD.

    Every offer is judged by the matcher in every attempt, the kept ones too, so a retried search chooses exactly
    what one attempt over the same offers would have chosen.
    """
    product = job["product"]
    names = list(product.get("sources") or runtime.settings.search_sources)
    sources = runtime.sources
    kept_answers = job.get(SOURCES_ANSWERED) or {}
    kept: dict[str, dict[str, Any]] = {name: kept_answers[name] for name in kept_answers if name in names}
    to_run = [name for name in names if name not in kept and name in sources]
    if runtime.settings.analyzer_warm_up and not analyzer.loaded():
        # A source's turn is the fleet's (`infra.source_limits`): take it only when this process can send at once.
        # The warm-up's load holds the interpreter up to half a second at a time, so a request whose turn was taken
        # meanwhile would leave late and reach the shop bunched with the next. Waits for the same load.
        await asyncio.to_thread(analyzer.load)
    outcomes = await asyncio.gather(*(_in_turn(name, sources[name], product, runtime.gates) for name in to_run))

    answered = {name: _kept_result(entry) for name, entry in kept.items()}
    per_source = {name: {key: entry[key] for key in ("outcome", "count", "ms")} for name, entry in kept.items()}
    #: Answers read only in part: their offers are shown (the search is not complete), the source runs again.
    partial: dict[str, SourceResult] = {}
    failed: dict[str, BaseException] = {}
    for name in names:
        if name not in sources and name not in kept:
            # The gateway refuses such products; a job stored before LPS_SEARCH_SOURCES changed ends here.
            failed[name] = PermanentJobError(
                f"{name}: not enabled in this deployment (LPS_SEARCH_SOURCES)", error_type=JobErrorType.CONFIG
            )
            per_source[name] = {"outcome": str(JobErrorType.CONFIG), "count": 0, "ms": 0}
    deferred: dict[str, Deferral] = {}
    for name, (outcome, ms) in zip(to_run, outcomes, strict=True):
        if isinstance(outcome, Deferral):
            deferred[name] = outcome
            per_source[name] = {"outcome": str(SourceOutcome.DEFERRED), "count": 0, "ms": 0, "error": str(outcome)}
        elif isinstance(outcome, SourceResult):
            per_source[name] = _answer_summary(outcome, ms)
            if outcome.incomplete is None:
                answered[name] = outcome
            else:
                partial[name] = outcome
                failed[name] = outcome.incomplete
        else:
            failed[name] = outcome
            per_source[name] = {"outcome": str(_outcome_of(outcome)), "count": 0, "ms": ms, "error": str(outcome)[:300]}
    # Every offer of the search at once (their price cluster is one), off the event loop: the analyzer takes a few
    # milliseconds a search, and its first use in a process a few seconds.
    await asyncio.to_thread(
        match_offers, product, [offer for answer in (*answered.values(), *partial.values()) for offer in answer.offers]
    )
    metrics.sources_searched({name: per_source[name] for name in to_run if name not in deferred})
    summary = ", ".join(
        f"{name} {entry['outcome']} ({entry['count']} offers, {entry['ms']} ms)" for name, entry in per_source.items()
    )
    log.info("searched %s: %s", job["product_code"], summary)
    if deferred and not failed:
        # Nothing failed, something was not tried: the attempt does not count (infra/lifecycle.py, "Deferred").
        raise _deferred(deferred, answered, per_source)
    # Beside a real failure the attempt counts; a deferred source runs again with the failed ones.
    failed |= {name: SourceDeferred(str(turn), retry_after=turn.retry_in) for name, turn in deferred.items()}
    # In the product's source order, whichever attempt each answer came from: a tie on price goes to the same offer.
    answers = answered | partial
    # Off the event loop too: the doubts about the lowest read its title with the analyzer.
    ordered = {name: answers[name] for name in names if name in answers}
    result = await asyncio.to_thread(summarize, product, ordered, failed, utcnow())
    result["sources"] = per_source
    if not failed:
        return {"result": result}
    raise _incomplete(failed, answered, per_source, {"result": result} if answered or partial else None)


def _answer_summary(answer: SourceResult, ms: int) -> dict[str, Any]:
    """A source's entry in `result.sources`: a partial answer is named by why it is partial (PARSE_FAIL, BLOCKED …),
    with the offers it did read counted and the items it skipped."""
    incomplete = answer.incomplete
    outcome = answer.outcome if incomplete is None else _outcome_of(incomplete)
    entry: dict[str, Any] = {"outcome": str(outcome), "count": len(answer.offers), "ms": ms}
    if answer.skipped:
        entry["skipped"] = answer.skipped
    if incomplete is not None:
        entry["error"] = str(incomplete)[:300]
    return entry


def _outcome_of(failure: BaseException) -> SourceOutcome:
    """How a source's failure is named in `result.sources`: its own outcome, ERROR for anything unforeseen."""
    return failure.outcome if isinstance(failure, SourceError) else SourceOutcome.ERROR


def _deferred(
    deferred: dict[str, Deferral], answered: dict[str, SourceResult], per_source: dict[str, dict[str, Any]]
) -> DeferredJobError:
    """The attempt of a search whose remaining sources' turn did not come: deferred until the earliest may come."""
    message = "; ".join(f"{name}: {turn}" for name, turn in deferred.items())
    return DeferredJobError(
        message[:500],
        retry_after=min(turn.retry_in for turn in deferred.values()),
        keep=_keep(answered, per_source) if answered else None,
        defer={"sources": sorted(deferred), "reason": message[:500]},
    )


def _keep(answered: dict[str, SourceResult], per_source: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """What the answering sources found, kept on the job for its next attempt."""
    return {
        SOURCES_ANSWERED: {
            name: per_source[name] | {"offers": [offer.as_document() for offer in result.offers]}
            for name, result in answered.items()
        }
    }


def _kept_result(entry: dict[str, Any]) -> SourceResult:
    """A source's answer kept from an earlier attempt; its old verdicts are dropped because `work_search` has the
    matcher judge its offers again."""
    offers = [Offer(**{k: v for k, v in offer.items() if k != "rejected"}) for offer in entry.get("offers", [])]
    return SourceResult(SourceOutcome(entry["outcome"]), offers)


def _incomplete(
    failed: dict[str, BaseException],
    answered: dict[str, SourceResult],
    per_source: dict[str, dict[str, Any]],
    fallback: dict[str, Any] | None,
) -> JobError:
    """The failure of an attempt in which some sources failed: retryable when any of them may answer later."""
    retryable = [error for error in failed.values() if not isinstance(error, JobError) or error.retryable]
    telling = _most_telling(list(failed.values()))
    message = "; ".join(f"{name}: {_failure_summary(error)['message']}" for name, error in failed.items())
    keep = _keep(answered, per_source)
    error_class = RetryableJobError if retryable else PermanentJobError
    return error_class(
        message[:500],
        error_type=telling.error_type if isinstance(telling, JobError) else SourceOutcome.ERROR,
        snapshot=telling.snapshot if isinstance(telling, JobError) else None,
        backoff_factor=max((getattr(e, "backoff_factor", 1.0) for e in retryable), default=1.0),
        retry_after=max(
            (e.retry_after for e in retryable if isinstance(e, JobError) and e.retry_after is not None), default=None
        ),
        keep=keep if answered else None,
        fallback=fallback,
        sources={name: per_source[name]["outcome"] for name in failed if name in per_source},
    )


def _most_telling(failures: list[BaseException]) -> BaseException:
    """The failure that names the attempt: a permanent one, else the one that asks the longest backoff."""
    for failure in failures:
        if isinstance(failure, JobError) and not failure.retryable:
            return failure
    retryable = [f for f in failures if isinstance(f, JobError)]
    if retryable:
        return max(retryable, key=lambda f: f.backoff_factor)
    return failures[0]


async def after_search(job: dict[str, Any], runtime: WorkerRuntime) -> list[dramatiq.Message]:
    """A DONE search: its prices go into price_history, and its result out through the outbox."""
    await runtime.price_history.record(job)
    return await spawn_outbox(job, runtime)
