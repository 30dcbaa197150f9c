"""The Coupang browser's proxies (LPS_COUPANG_PROXIES) as units: the rotation and its benches, and a proxy
named and refused without its credentials."""

from __future__ import annotations

import pytest

from actors.proxies import ProxiesBenched, ProxyOutcome, ProxyRotation
from infra.proxy_urls import Proxy, parse_proxy
from infra.settings import Settings, SettingsError
from tests.proxy_credentials import SECRET


async def test_the_rotation_takes_proxies_in_turn_and_a_bench_ends_after_its_cool_down():
    now = [0.0]
    proxies = [parse_proxy(f"http://10.0.0.{n}:3128") for n in (1, 2, 3)]
    rotation = ProxyRotation(proxies, cooldown=30.0, clock=lambda: now[0])

    assert [rotation.take().host for _ in range(4)] == ["10.0.0.1", "10.0.0.2", "10.0.0.3", "10.0.0.1"]
    await rotation.record(proxies[1], ProxyOutcome.BLOCKED)
    assert [rotation.take().host for _ in range(3)] == ["10.0.0.3", "10.0.0.1", "10.0.0.3"]
    assert rotation.benched() == ["http://10.0.0.2:3128"]
    now[0] = 30.0
    assert rotation.benched() == []
    assert [rotation.take().host for _ in range(3)] == ["10.0.0.1", "10.0.0.2", "10.0.0.3"]


async def test_with_every_proxy_benched_the_rotation_says_so_before_a_search_and_when_one_is_free_again():
    now = [0.0]
    proxies = [parse_proxy(f"http://10.0.0.{n}:3128") for n in (1, 2)]
    rotation = ProxyRotation(proxies, cooldown=30.0, clock=lambda: now[0])

    await rotation.record(proxies[0], ProxyOutcome.UNREACHABLE)
    assert rotation.all_benched() is None
    now[0] = 10.0
    await rotation.record(proxies[1], ProxyOutcome.BLOCKED)
    every = rotation.all_benched()
    assert every is not None
    assert every.retry_after == 20.0  # the first bench ends first
    with pytest.raises(ProxiesBenched):
        rotation.take()
    now[0] = 30.0
    assert rotation.all_benched() is None
    assert rotation.take() is proxies[0]


def test_a_proxy_is_named_without_its_credentials_everywhere():
    proxy = parse_proxy(f"http://lps%40shop:{SECRET}@[::1]:3128")

    assert (proxy.username, proxy.password) == ("lps@shop", SECRET)
    assert proxy.label == str(proxy) == "http://[::1]:3128"
    assert SECRET not in repr(proxy)
    settings = Settings.from_env({"LPS_COUPANG_PROXIES": f"http://lps:{SECRET}@127.0.0.1:3128"})
    assert SECRET not in repr(settings)
    assert isinstance(parse_proxy(settings.coupang_proxies[0]), Proxy)


@pytest.mark.parametrize(
    ("value", "bad_part"),
    [
        ("127.0.0.1:3128", "proxy #1: expected SCHEME://[USER:PASSWORD@]HOST:PORT"),
        (f"http://lps:{SECRET}@127.0.0.1", "proxy #1: http://127.0.0.1: the port is missing"),
        (f"http://lps:{SECRET}@127.0.0.1:99999", "with a port from 1 to 65535"),
        (f"http://lps:{SECRET}@127.0.0.1:3128/path", "http://127.0.0.1:3128: a proxy URL has no path"),
        (f"http://:{SECRET}@127.0.0.1:3128", "a password without a user name"),
        (f"socks5://lps:{SECRET}@127.0.0.1:1080", "SOCKS5 proxies with credentials"),
        ("http://127.0.0.1:3128,http://lps:x@127.0.0.1:3128", "proxy #2: http://127.0.0.1:3128 is given twice"),
    ],
)
def test_a_malformed_proxy_url_names_the_variable_and_the_bad_part_never_the_credentials(value: str, bad_part: str):
    with pytest.raises(SettingsError) as refused:
        Settings.from_env({"LPS_COUPANG_PROXIES": value})
    message = str(refused.value)
    assert message.startswith("LPS_COUPANG_PROXIES: ")
    assert bad_part in message
    assert SECRET not in message
