"""Facts about the machine and the servers a run was taken on, for the report."""

from __future__ import annotations

import contextlib
import os
import platform
import subprocess
import sys
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

import pika

from actors.browser import resolve_executable
from bench.stack import REPO, Store

PACKAGES = ("aiohttp", "dramatiq", "pika", "pymongo", "playwright", "mongoeco", "selectolax", "marshmallow")


def _cpu_model() -> str:
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return platform.processor() or "?"


def _memory_gib() -> float:
    with contextlib.suppress(OSError, ValueError):
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                return round(int(line.split()[1]) / 2**20, 1)
    return 0.0


def chromium_version(browser_path: str) -> str:
    with contextlib.suppress(OSError, subprocess.SubprocessError, FileNotFoundError):
        # Debian's wrapper script prints noise on stderr; the version is on stdout.
        done = subprocess.run(
            [resolve_executable(browser_path), "--version"], capture_output=True, text=True, timeout=30, check=False
        )
        return done.stdout.strip()
    return "?"


def rabbitmq_version(amqp_url: str) -> str:
    with contextlib.suppress(Exception), contextlib.closing(pika.BlockingConnection(pika.URLParameters(amqp_url))) as c:
        properties = c._impl.server_properties  # pika keeps the broker's connection.start properties here
        return (
            f"{properties.get('product', 'RabbitMQ')} {properties.get('version', '?')} ({properties.get('platform')})"
        )
    return "?"


def _git(*args: str) -> str:
    with contextlib.suppress(OSError, subprocess.SubprocessError):
        done = subprocess.run(["git", *args], cwd=REPO, capture_output=True, text=True, timeout=10, check=False)
        return done.stdout.strip()
    return ""


def _package(name: str) -> str:
    try:
        return version(name)
    except PackageNotFoundError:
        return "-"


def machine_facts(store: Store, amqp_url: str, browser_path: str) -> dict[str, Any]:
    return {
        "cores": os.cpu_count(),
        "cores_usable": len(os.sched_getaffinity(0)),
        "cpu": _cpu_model(),
        "memory_gib": _memory_gib(),
        "os": platform.platform(),
        "python": f"{platform.python_implementation()} {sys.version.split()[0]}",
        "chromium": chromium_version(browser_path),
        "rabbitmq": rabbitmq_version(amqp_url),
        "store": store.label,
        "store_kind": store.kind,
        "packages": {name: _package(name) for name in PACKAGES},
        "load_average_at_start": [round(load, 2) for load in os.getloadavg()],
        "commit": _git("rev-parse", "--short", "HEAD"),
        "work_tree_changed": bool(_git("status", "--porcelain")),
    }
