"""What `lps dev` decides and says without starting anything: the management UI, the quiet log, which
sources are active and why, and what the demo puts aside and the key it takes."""

from __future__ import annotations

import socket

import pytest

from infra.settings import Settings
from tools import dev
from tools.dev import DevPorts, QuietFilter, source_report


async def test_the_management_ui_is_enabled_only_when_it_is_off(monkeypatch: pytest.MonkeyPatch):
    calls: list[tuple[str, ...]] = []

    async def output_of(*command: str) -> str:
        calls.append(command)
        return "rabbitmq_management\nrabbitmq_web_dispatch\n"

    async def answering(host: str, port: int) -> bool:
        return True

    async def silent(host: str, port: int) -> bool:
        return False

    monkeypatch.setattr(dev, "_output_of", output_of)
    monkeypatch.setattr(dev, "_answers", answering)
    assert await dev.ensure_management_ui("127.0.0.1") is None
    assert calls == []  # the UI answers: nothing is run

    monkeypatch.setattr(dev, "_answers", silent)
    assert await dev.ensure_management_ui("127.0.0.1") is None
    assert calls == [("rabbitmq-plugins", "list", "--enabled", "--minimal")]  # on, not listening yet: not enabled again


# --- 6. quiet by default -----------------------------------------------------------------------------------------


def test_the_quiet_log_keeps_warnings_errors_tracebacks_and_prints_and_drops_info():
    lines = [
        "[2026-11-30 21:45:55,519] [PID 777] [MainThread] [dramatiq.MainProcess] [INFO] Dramatiq 2.2.1 is booting",
        "2026-11-30 21:45:55,635 INFO aiohttp.access: 127.0.0.1 GET /image/coupang/favicon/v2/favicon.png 200",
        "======== Running on http://127.0.0.1:8080 ========",
        "[2026-11-30 21:46:00,093] [PID 780] [Thread-6] [actors.middleware] [ERROR] job 6b0d attempt crashed",
        "Traceback (most recent call last):",
        '  File "x.py", line 1, in <module>',
        "ValueError: boom",
        '{"time": "2026-11-30T21:46:00", "level": "INFO", "logger": "actors.search", "message": "searched"}',
        "delivery 6b0dee9753c7695c830cdaad: DEMO-1 FOUND lowest=1009000 naver signature=ok",
        "2026-11-30 21:46:01,000 WARNING infra.reconciler: RabbitMQ unreachable",
    ]
    quiet = QuietFilter()
    assert [line for line in lines if quiet.keep(line)] == [lines[3], lines[4], lines[5], lines[6], lines[9]]
    # The receiver prints its deliveries with no level: what follows a kept record, or stands alone, is kept.
    assert QuietFilter().keep(lines[8])


# --- 7. which sources work ---------------------------------------------------------------------------------------


async def test_the_start_up_says_which_sources_are_active_and_why_the_others_are_not():
    with socket.socket() as listening, socket.socket() as closed:
        listening.bind(("127.0.0.1", 0))
        listening.listen()
        closed.bind(("127.0.0.1", 0))  # bound, never listening: connections to it are refused
        settings = Settings(
            search_sources=("coupang", "naver"),
            coupang_base_url=f"http://127.0.0.1:{closed.getsockname()[1]}",
            naver_client_id="",
        )
        lines = await source_report(settings)  # printed by `lps dev` as they stand
        assert lines[0].startswith("source coupang: INACTIVE, http://127.0.0.1:")
        assert "unreachable" in lines[0]
        assert lines[1].startswith("source naver: INACTIVE, LPS_NAVER_CLIENT_ID and LPS_NAVER_CLIENT_SECRET unset")
        # It read "source no source is active" (issue 33).
        assert lines[2].startswith("no source is active: every search will fail")

        shop = f"http://127.0.0.1:{listening.getsockname()[1]}"
        working = settings.with_overrides(
            coupang_base_url=shop, naver_base_url=shop, naver_client_id="id", naver_client_secret="secret"
        )
        assert await source_report(working) == [f"source coupang: active ({shop})", f"source naver: active ({shop})"]


def test_the_demo_says_which_of_the_given_settings_it_puts_aside():
    """`lps dev --demo` replaced LPS_SEARCH_SOURCES and the outbox settings without a word."""
    given = Settings(search_sources=("static",), outbox_url="http://backoffice:9/results", outbox_secret="s3cret")

    demo, said = dev.demo_settings(given, DevPorts(mongo=1, shop=28090, receiver=29000))

    assert demo.search_sources == ("coupang", "naver")
    assert demo.outbox_url == "http://127.0.0.1:29000/results"
    assert said == [
        "demo: searches coupang and naver at the demo shop http://127.0.0.1:28090 "
        "(instead of LPS_SEARCH_SOURCES=static and the LPS_COUPANG_BASE_URL / LPS_NAVER_* settings)",
        "demo: delivers to its receiver http://127.0.0.1:29000/results with a random LPS_OUTBOX_SECRET (instead of "
        "LPS_OUTBOX_URL=http://backoffice:9/results)",
    ]


def test_the_demo_takes_an_admin_key_and_refuses_a_stack_with_only_read_keys():
    from tools.dev import DevStackRefused, demo_key

    keyed = Settings.from_strings({"api_keys": "viewer=view-c0ffee:read,ops=ops-5e6d:admin,more=m-1"})
    assert demo_key(Settings(), None) is None
    assert demo_key(keyed, None) == "ops-5e6d"
    assert demo_key(keyed, "m-1") == "m-1"  # LPS_API_KEY, when it is one of the configured keys
    with pytest.raises(DevStackRefused, match="no admin key"):
        demo_key(Settings.from_strings({"api_keys": "viewer=view-c0ffee:read"}), None)
