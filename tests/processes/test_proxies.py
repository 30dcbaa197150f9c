"""The Coupang browser's proxies (LPS_COUPANG_PROXIES): real Chromium, real loopback HTTP forward proxies
(`tools.forward_proxy`, counting what goes through them) and the demo shop."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path

import pytest
from aiohttp.test_utils import TestServer
from prometheus_client import CollectorRegistry

from actors import metrics
from actors.proxies import ProxiesBenched, ProxyRotation, ProxyUnreachable
from actors.sources import SourceBlocked
from actors.sources.coupang import CoupangSource
from infra.settings import Settings
from schemas.offers import SourceOutcome
from service.app import create_app
from tests.harness import JobsView, coupang_sources, worker_pool
from tests.ports import free_port
from tests.proxy_credentials import SECRET
from tools.demo_shop import SHOP_LOG, create_demo_shop_app
from tools.forward_proxy import PROXY_LOG, create_forward_proxy_app

KEYWORD = "아이폰 15 128GB"


def searches(targets: list[str]) -> list[str]:
    """The Coupang searches among what went through a proxy (the page's favicon goes through it too)."""
    return [target for target in targets if "/np/search?" in target]


def proxy_url(server: TestServer, credentials: str = "") -> str:
    return f"http://{credentials}{server.host}:{server.port}"


@pytest.fixture
async def shop(aiohttp_server) -> TestServer:
    return await aiohttp_server(create_demo_shop_app())


@pytest.fixture
async def coupang_through(
    shop: TestServer, settings: Settings
) -> AsyncIterator[Callable[[list[str], float], CoupangSource]]:
    """Builds the Coupang source of a worker with these proxy URLs and cool-down, on one real Chromium."""
    async with coupang_sources(settings, str(shop.make_url(""))) as build:
        yield lambda urls, cooldown: build(ProxyRotation.from_urls(urls, cooldown=cooldown))


@pytest.fixture
def registry() -> Iterator[CollectorRegistry]:
    registry = CollectorRegistry()
    metrics.use(metrics.WorkerMetrics(registry))
    yield registry
    metrics.use(None)


@pytest.mark.processes
async def test_a_blocked_proxy_is_benched_and_the_next_searches_use_the_other(
    aiohttp_server, shop: TestServer, coupang_through, registry: CollectorRegistry, caplog
):
    good = await aiohttp_server(create_forward_proxy_app(username="lps", password=SECRET))
    banned = await aiohttp_server(create_forward_proxy_app(deny=True))
    coupang = coupang_through([proxy_url(good, f"lps:{SECRET}@"), proxy_url(banned)], 60.0)
    caplog.set_level(logging.DEBUG)

    first = await coupang.search({"keyword": KEYWORD})
    with pytest.raises(SourceBlocked):
        await coupang.search({"keyword": KEYWORD})
    later = [await coupang.search({"keyword": KEYWORD}) for _ in range(3)]

    assert [result.outcome for result in (first, *later)] == [SourceOutcome.FOUND] * 4
    # Every search went through a proxy: four through the good one (it asked for, and got, the credentials),
    # one through the banned one, which is not asked again while benched.
    assert len(searches(good.app[PROXY_LOG].forwarded)) == 4
    assert good.app[PROXY_LOG].unauthenticated >= 1
    assert len(searches(banned.app[PROXY_LOG].denied)) == 1
    assert len(shop.app[SHOP_LOG].of("coupang")) == 4
    good_label, banned_label = proxy_url(good), proxy_url(banned)
    assert registry.get_sample_value("lps_proxy_searches_total", {"proxy": good_label, "outcome": "answered"}) == 4
    assert registry.get_sample_value("lps_proxy_searches_total", {"proxy": banned_label, "outcome": "blocked"}) == 1
    assert registry.get_sample_value("lps_proxy_benched_total", {"proxy": banned_label}) == 1
    assert f"proxy {banned_label} blocked: benched for 60 s" in caplog.text
    exposition = "".join(f"{metric.name} {sample.labels}" for metric in registry.collect() for sample in metric.samples)
    assert SECRET not in caplog.text
    assert SECRET not in exposition


@pytest.mark.processes
async def test_a_proxy_refusing_connections_is_benched_not_retried_and_with_none_left_searches_fail_fast(
    aiohttp_server, shop: TestServer, coupang_through
):
    good = await aiohttp_server(create_forward_proxy_app())
    refusing = f"http://127.0.0.1:{free_port()}"  # nothing listens there
    coupang = coupang_through([refusing, proxy_url(good)], 60.0)

    with pytest.raises(ProxyUnreachable, match="ERR_PROXY_CONNECTION_FAILED"):
        await coupang.search({"keyword": KEYWORD})
    results = [await coupang.search({"keyword": KEYWORD}) for _ in range(3)]
    assert [result.outcome for result in results] == [SourceOutcome.FOUND] * 3
    assert len(searches(good.app[PROXY_LOG].forwarded)) == 3

    alone = coupang_through([refusing], 60.0)
    with pytest.raises(ProxyUnreachable):
        await alone.search({"keyword": KEYWORD})
    with pytest.raises(ProxiesBenched) as benched:  # no second try at a proxy that refused: it sits out
        await alone.search({"keyword": KEYWORD})
    assert 55 <= (benched.value.retry_after or 0) <= 60
    assert len(shop.app[SHOP_LOG].of("coupang")) == 3


@pytest.mark.processes
def test_a_malformed_proxy_list_stops_a_command_at_start_up_naming_the_variable_and_not_the_secret():
    environment = os.environ | {"LPS_COUPANG_PROXIES": f"http://lps:{SECRET}@127.0.0.1:3128,ftp://lps:{SECRET}@h:21"}
    finished = subprocess.run(
        [sys.executable, "-m", "tools.lps", "stats"], env=environment, capture_output=True, text=True, timeout=60
    )

    assert finished.returncode == 2, finished.stderr
    assert (
        "LPS_COUPANG_PROXIES: proxy #2: ftp://h:21: scheme 'ftp' is not one of http, https, socks5" in finished.stderr
    )
    assert SECRET not in finished.stderr + finished.stdout


@pytest.mark.processes
async def test_a_search_blocked_through_one_proxy_is_retried_through_the_other_in_a_worker_pool(
    aiohttp_client, aiohttp_server, shop: TestServer, settings: Settings, tmp_path: Path
):
    good = await aiohttp_server(create_forward_proxy_app(username="lps", password=SECRET))
    banned = await aiohttp_server(create_forward_proxy_app(deny=True))
    proxied = settings.with_overrides(
        search_sources=("coupang",),
        coupang_base_url=str(shop.make_url("")).rstrip("/"),
        coupang_max_pages=1,
        # The banned proxy comes first in turn: the first attempt is blocked, the retry takes the good one.
        coupang_proxies=(proxy_url(banned), proxy_url(good, f"lps:{SECRET}@")),
        retry_min_backoff=0.2,
        retry_max_backoff=1.0,
        blocked_backoff_factor=1.0,
    )
    gateway = await aiohttp_client(create_app(proxied))
    view = JobsView(proxied)
    try:
        async with worker_pool(proxied, "search", tmp_path, threads=1) as pool:
            answer = await (
                await gateway.post("/v1/lps/search", json={"products": [{"product_code": "P1", "keyword": KEYWORD}]})
            ).json()
            job = await view.finished(answer["jobs"][0]["job_id"], within=90)
        stats = await (await gateway.get("/v1/lps/queue/stats")).json()
    finally:
        await view.close()

    assert (job["status"], job["attempts"], job["result"]["complete"]) == ("DONE", 2, True)
    # The gateway shows what the worker saw of each proxy, fleet-wide, named without credentials.
    banned_seen, good_seen = stats["proxies"][proxy_url(banned)], stats["proxies"][proxy_url(good)]
    assert (banned_seen["outcomes"], banned_seen["benched"], banned_seen["benched_now"]) == ({"blocked": 1}, 1, True)
    assert (good_seen["outcomes"], good_seen["benched"], good_seen["last_outcome"]) == ({"answered": 1}, 0, "answered")
    assert SECRET not in json.dumps(stats)
    assert [entry["error"]["type"] for entry in job["history"] if entry.get("error")] == ["BLOCKED"]
    assert len(searches(banned.app[PROXY_LOG].denied)) == 1
    assert len(searches(good.app[PROXY_LOG].forwarded)) == 1
    log = pool.log()
    assert f"proxy {proxy_url(banned)} blocked: benched for 300 s" in log
    assert SECRET not in log
