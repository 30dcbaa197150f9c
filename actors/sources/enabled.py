"""The sources a deployment enables (LPS_SEARCH_SOURCES), each built with its settings and the worker's shared parts
(its browser, HTTP session, snapshots and proxy ledger)."""

from __future__ import annotations

from collections.abc import Callable

from actors.proxies import ProxyRotation
from actors.runtime import WorkerRuntime
from actors.sources import Source
from actors.sources.coupang import CoupangSource
from actors.sources.naver import NaverSource
from actors.sources.static import StaticSource
from schemas.offers import SourceName


def build_sources(runtime: WorkerRuntime) -> dict[str, Source]:
    """The sources this deployment enables (LPS_SEARCH_SOURCES); built on the worker's loop at its first search."""
    settings = runtime.settings
    enabled = set(settings.search_sources)
    builders: dict[SourceName, Callable[[], Source]] = {
        SourceName.STATIC: lambda: StaticSource(
            blocked_backoff_factor=settings.blocked_backoff_factor, test_directives=settings.test_directives
        ),
        SourceName.COUPANG: lambda: CoupangSource(
            runtime.browser,
            runtime.snapshots,
            base_url=settings.coupang_base_url,
            max_pages=settings.coupang_max_pages,
            blocked_backoff_factor=settings.blocked_backoff_factor,
            render_timeout=min(settings.browser_render_timeout, settings.browser_navigation_timeout),
            settle=settings.coupang_settle,
            proxies=ProxyRotation.from_urls(
                settings.coupang_proxies, cooldown=settings.coupang_proxy_cooldown, ledger=runtime.proxy_ledger
            ),
        ),
        SourceName.NAVER: lambda: NaverSource(
            runtime.http,
            base_url=settings.naver_base_url,
            client_id=settings.naver_client_id,
            client_secret=settings.naver_client_secret,
            display=settings.naver_display,
            sort=settings.naver_sort,
        ),
    }
    return {name: build() for name, build in builders.items() if name in enabled}
