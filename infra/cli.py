"""The `lps` command: one entry point, one sub-command per process kind."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import sys
from collections.abc import Iterator

from infra.settings import Settings

log = logging.getLogger("lps")


def _configure_logging(level: str) -> None:
    logging.basicConfig(level=level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    # pika narrates every connection step at INFO.
    logging.getLogger("pika").setLevel(logging.WARNING)


@contextlib.contextmanager
def mongo_for(settings: Settings) -> Iterator[Settings]:
    """Settings with a MongoDB URL: LPS_MONGO_URL, or an embedded server started for this command."""
    if settings.mongo_url:
        yield settings
        return
    from infra.embedded_mongo import embedded_mongo

    with embedded_mongo() as url:
        log.info("LPS_MONGO_URL unset: started the embedded MongoDB-compatible server at %s", url)
        yield settings.with_overrides(mongo_url=url)


def cmd_gateway(args: argparse.Namespace) -> int:
    from aiohttp import web

    from service.app import create_app

    settings = Settings.from_env()
    host = args.host or settings.http_host
    port = args.port or settings.http_port
    with mongo_for(settings) as settings:
        web.run_app(create_app(settings), host=host, port=port, access_log=None)
    return 0


def cmd_mongo(args: argparse.Namespace) -> int:
    from infra.embedded_mongo import serve

    asyncio.run(serve(args.host, args.port, args.data))
    return 0


def cmd_ensure_rabbitmq(args: argparse.Namespace) -> int:
    from infra.rabbitmq import RabbitMQUnavailable, ensure_rabbitmq

    try:
        print(ensure_rabbitmq(Settings.from_env().amqp_url))
    except RabbitMQUnavailable as missing:
        print(f"lps: {missing}", file=sys.stderr)
        return 1
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="lps", description="LPS — Lowest Price Search")
    parser.add_argument("--log-level", default="INFO")
    commands = parser.add_subparsers(dest="command", required=True)

    gateway = commands.add_parser("gateway", help="serve the HTTP API (LPS_HTTP_HOST/LPS_HTTP_PORT)")
    gateway.add_argument("--host")
    gateway.add_argument("--port", type=int)
    gateway.set_defaults(run=cmd_gateway)

    mongo = commands.add_parser("mongo", help="the embedded MongoDB-compatible wire server (dev and tests)")
    mongo.add_argument("--host", default="127.0.0.1")
    mongo.add_argument("--port", type=int, default=27017)
    mongo.add_argument("--data", metavar="FILE", help="SQLite file that keeps the data (default: in memory)")
    mongo.set_defaults(run=cmd_mongo)

    rabbit = commands.add_parser(
        "ensure-rabbitmq", help="check LPS_AMQP_URL answers; start a local rabbitmq-server if stopped"
    )
    rabbit.set_defaults(run=cmd_ensure_rabbitmq)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    _configure_logging(args.log_level)
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
