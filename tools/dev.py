"""`lps dev`: the whole stack on one machine in one command, with one combined, prefixed log.

Starts, in order: the embedded MongoDB-compatible server (unless LPS_MONGO_URL is set), RabbitMQ (the
running one, or a locally installed one started and given its management UI), the gateway, both worker
pools as real Dramatiq processes under a supervisor, and the reconciler. `--demo` adds the demo shop
and a local receiver for deliveries, submits the demo catalogue's products, prints the results table
and stops. Ctrl-C (or SIGTERM) stops everything, newest first, and leaves nothing running.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from infra.settings import Settings
from schemas.offers import SourceName
from tools.embedded_mongo import wait_for_port
from tools.gateway_client import RESULT_COLUMNS, GatewayClient, format_rows, submit_and_wait
from tools.rabbitmq import ensure_rabbitmq

DEMO_CATALOGUE = Path(__file__).parent / "demo_data" / "products.json"
#: Seconds a child gets to stop after SIGTERM before it is killed (worker pools finish in-flight jobs).
STOP_TIMEOUT = 45.0


@dataclass(frozen=True, slots=True)
class DevPorts:
    mongo: int = 27017
    shop: int = 8090
    receiver: int = 9000


def demo_products() -> list[dict]:
    """One product per demo-catalogue keyword, as a back office would send it."""
    catalogue = json.loads(DEMO_CATALOGUE.read_text(encoding="utf-8"))["keywords"]
    return [{"product_code": f"DEMO-{index}", **entry["request"]} for index, entry in enumerate(catalogue.values(), 1)]


def enable_management_ui() -> None:
    """Best effort: the RabbitMQ management UI on 15672 (needs a local rabbitmq-plugins)."""
    with contextlib.suppress(OSError, subprocess.SubprocessError):
        subprocess.run(["rabbitmq-plugins", "enable", "rabbitmq_management"], capture_output=True, timeout=60)


@dataclass
class Child:
    name: str
    process: asyncio.subprocess.Process
    essential: bool
    pump: asyncio.Task[None] | None = None


@dataclass
class DevStack:
    settings: Settings
    ports: DevPorts = field(default_factory=DevPorts)
    demo: bool = False
    out: TextIO = sys.stdout
    children: list[Child] = field(default_factory=list)

    async def _pump(self, child: Child) -> None:
        assert child.process.stdout is not None
        async for raw in child.process.stdout:
            self.out.write(f"{child.name:>10} | {raw.decode(errors='replace').rstrip()}\n")
            self.out.flush()

    async def start(self, name: str, *arguments: str, env: dict[str, str], essential: bool = True) -> Child:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tools.cli", *arguments,
            env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
            start_new_session=True,  # Ctrl-C reaches `lps dev` only; it stops the children in order
        )  # fmt: skip
        child = Child(name, process, essential)
        child.pump = asyncio.create_task(self._pump(child))
        self.children.append(child)
        return child

    def say(self, line: str) -> None:
        self.out.write(f"{'lps dev':>10} | {line}\n")
        self.out.flush()

    async def stop(self) -> None:
        """SIGTERM to every child, newest first; whatever is still running after STOP_TIMEOUT is killed."""
        for child in reversed(self.children):
            if child.process.returncode is None:
                with contextlib.suppress(ProcessLookupError):
                    child.process.send_signal(signal.SIGTERM)
                try:
                    await asyncio.wait_for(child.process.wait(), STOP_TIMEOUT)
                except TimeoutError:
                    self.say(f"{child.name} did not stop in time: killed")
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(child.process.pid, signal.SIGKILL)  # its own session: anything it left behind
            if child.pump is not None:
                await child.pump
        self.children.clear()

    async def _wait_port(self, port: int, what: str) -> None:
        if not await asyncio.to_thread(wait_for_port, "127.0.0.1", port, 60):
            raise RuntimeError(f"{what} did not start on port {port}")

    async def run(self, stop: asyncio.Event) -> int:
        settings = self.settings
        env = dict(os.environ)
        if not settings.mongo_url:
            await self.start("mongo", "mongo", "--port", str(self.ports.mongo), env=env)
            await self._wait_port(self.ports.mongo, "the embedded MongoDB server")
            settings = settings.with_overrides(
                mongo_url=f"mongodb://127.0.0.1:{self.ports.mongo}/?directConnection=true"
            )
        self.say(await asyncio.to_thread(ensure_rabbitmq, settings.amqp_url))
        await asyncio.to_thread(enable_management_ui)
        if self.demo:
            shop = f"http://127.0.0.1:{self.ports.shop}"
            await self.start("shop", "demo-shop", "--port", str(self.ports.shop), env=env)
            await self.start("receiver", "receiver", "--port", str(self.ports.receiver), env=env | settings.to_env())
            settings = settings.with_overrides(
                coupang_base_url=shop,
                naver_base_url=shop,
                naver_client_id="demo",
                # The demo shop takes any secret. Not "demo": every configured secret is masked in the logs, and a
                # short one wherever it stands as a word, so "demo" would turn "demo-shop" lines into "***-shop".
                naver_client_secret="demo-naver-secret",
                search_sources=(SourceName.COUPANG, SourceName.NAVER),
                outbox_url=f"http://127.0.0.1:{self.ports.receiver}/results",
            )
            await self._wait_port(self.ports.shop, "the demo shop")
        env |= settings.to_env()
        await self.start("gateway", "gateway", env=env)
        await self._wait_port(settings.http_port, "the gateway")
        await self.start("search", "worker", "search", "--supervise", env=env)
        await self.start("outbox", "worker", "outbox", "--supervise", env=env)
        await self.start("reconciler", "reconciler", env=env)
        self.say(f"gateway on http://{settings.http_host}:{settings.http_port} (docs: /api/docs), Ctrl-C stops all")
        if self.demo:
            return await self._run_demo(settings)
        return await self._until_stopped(stop)

    async def _run_demo(self, settings: Settings) -> int:
        async with GatewayClient(f"http://{settings.http_host}:{settings.http_port}") as client:
            rows = await submit_and_wait(client, demo_products(), within=300, stream=self.out)
        self.out.write(format_rows(rows, RESULT_COLUMNS) + "\n")
        return 0 if all(row["status"] in ("DONE", "DEAD") for row in rows) else 1

    async def _until_stopped(self, stop: asyncio.Event) -> int:
        """Until Ctrl-C, or until an essential child exits on its own (then everything stops)."""
        waiters = {asyncio.create_task(child.process.wait()): child for child in self.children if child.essential}
        stopping = asyncio.create_task(stop.wait())
        done, _ = await asyncio.wait([stopping, *waiters], return_when=asyncio.FIRST_COMPLETED)
        for task in [stopping, *waiters]:
            task.cancel()
        if stopping in done:
            return 0
        for task in done:
            self.say(f"{waiters[task].name} exited with {waiters[task].process.returncode}: stopping everything")
        return 1


async def run_dev(settings: Settings, *, ports: DevPorts, demo: bool) -> int:
    stack = DevStack(settings, ports=ports, demo=demo)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    try:
        return await stack.run(stop)
    finally:
        stack.say("stopping")
        await stack.stop()
