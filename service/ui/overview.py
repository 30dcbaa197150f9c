"""The overview page (/ui): the live part's counts, queues, repairs and charts (`service.ui.live`), as first shown."""

from __future__ import annotations

from typing import Any

from aiohttp import web

from service.ui.live import live_context


async def overview(request: web.Request) -> tuple[str, dict[str, Any]]:
    return "overview.html", await live_context(request)
