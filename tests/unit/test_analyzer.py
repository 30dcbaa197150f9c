"""The Korean analyzer: loaded once per process, by a search pool when it boots, never by a pool that only delivers
(nor by one with LPS_ANALYZER_WARM_UP off: its first search that needs it loads it)."""

from __future__ import annotations

import threading
from types import SimpleNamespace

import pytest
from dramatiq.brokers.stub import StubBroker

from actors.matching import doubts_about_the_lowest, lines
from actors.worker import AnalyzerWarmUp
from infra.settings import Settings
from infra.text import analyzer
from infra.text.words import segments
from schemas.codes import JobType
from schemas.offers import Offer


def test_the_analyzer_is_loaded_once_per_process_whatever_the_threads_asking():
    loaded: list[object] = []
    threads = [threading.Thread(target=lambda: loaded.append(analyzer.load())) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert len(loaded) == 4
    assert len({id(kiwi) for kiwi in loaded}) == 1
    assert analyzer.load() is loaded[0]


@pytest.mark.parametrize(
    ("queues", "warm_up", "loads"),
    [("search", True, True), ("outbox", True, False), ("all", True, True), ("search", False, False)],
)
def test_a_pool_that_searches_loads_the_analyzer_when_it_boots(
    monkeypatch: pytest.MonkeyPatch, queues: str, warm_up: bool, loads: bool
):
    asked = threading.Event()
    monkeypatch.setattr(analyzer, "load", asked.set)
    settings = Settings(analyzer_warm_up=warm_up)
    whitelist = settings.job(JobType[queues.upper()]).queues if queues != "all" else None

    AnalyzerWarmUp(settings).after_worker_boot(StubBroker(), SimpleNamespace(consumer_whitelist=whitelist))  # type: ignore[arg-type]

    assert asked.wait(timeout=5 if loads else 0.2) is loads


def test_a_words_segments_are_read_in_their_context():
    # Alone, "재입고" reads as a verb form; in a title it is the noun 입고 with its prefix 재 ("restocking").
    assert [segment.text for segment in segments("오뚜기 진라면 재입고 알림")][:3] == ["오뚜기", "진라면", "재입고"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("노리개젖꼭지 0-6개월", ["노리개", "젖꼭지", "0-6개월"]),
        ("텐트 2-3인용", ["텐트", "2-3인용"]),
        ("코바늘 5/0호", ["코바늘", "5/0호"]),  # a size written as a fraction: a crochet hook's
        # a reviewer's: any other serial names nothing, and the word after it stays its own (sold out, used)
        ("에어포스 250mm 250-260품절", ["에어포스", "250mm", "품절"]),
        ("갤럭시 2024-01-15중고", ["갤럭시", "중고"]),
        ("12/25품절", ["품절"]),
    ],
)
def test_a_range_glued_to_its_counter_is_one_segment(text: str, expected: list[str]):
    # Kiwi reads "0-6" as a serial number: a range where what it counts follows it, read with it, not dropped.
    assert [segment.text for segment in segments(text)] == expected


def test_the_doubts_about_a_latin_keywords_lowest_never_ask_the_analyzer(monkeypatch: pytest.MonkeyPatch):
    # A search pool may still be loading it when its first search ends (CI saw a job wait on it after a restart):
    # titles that write nothing after the name but its number give the after-the-name doubt nothing to read.
    def refuse(text: str) -> None:
        raise AssertionError(f"the analyzer was asked to read {text!r}")

    monkeypatch.setattr(lines, "morphemes", refuse)
    offers = [
        Offer(source="static", title=f"zq {number}", price=1_000 * number, url="https://example.test/p")
        for number in (3, 4, 5)
    ]
    assert doubts_about_the_lowest({"keyword": "zq"}, offers) == []
