"""The real gateway app (`service.app.create_app`) served by aiohttp, with the benchmark probe loaded first.

What `lps gateway` runs, minus starting an embedded store (the runner always gives `LPS_MONGO_URL`):

    LPS_BENCH_PROBE_DIR=/tmp/probe LPS_BENCH_PROBE_ROLE=gateway python -m bench.gateway
"""

from __future__ import annotations

import logging
import os
import socket

from aiohttp import web

from bench import probe  # before the app creates its MongoDB client: the listeners must see it
from infra.settings import Settings
from service.app import create_app

#: The environment variable naming the listening socket the runner bound and handed over (bench/stack.py).
LISTEN_FD = "LPS_BENCH_LISTEN_FD"


def main() -> None:
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    settings = Settings.from_env()
    if not settings.mongo_url:
        raise SystemExit("bench.gateway: LPS_MONGO_URL is not set")
    app = create_app(settings)
    app.on_startup.append(probe.watch_running_loop)
    listening = socket.socket(fileno=int(os.environ[LISTEN_FD])) if LISTEN_FD in os.environ else None
    if listening is not None:
        web.run_app(app, sock=listening, access_log=None, print=None)
    else:
        web.run_app(app, host=settings.http_host, port=settings.http_port, access_log=None, print=None)


if __name__ == "__main__":
    main()
