"""API keys and rate limits as units: every configured key compared, the token buckets (against a fake
clock), and LPS_API_KEYS refused without showing a key."""

from __future__ import annotations

import hmac

import pytest

from infra.settings import Settings
from service.app import create_app
from service.auth import ApiKeyMiddleware, TokenBuckets


def test_a_key_is_compared_with_every_configured_key_even_after_a_match(monkeypatch: pytest.MonkeyPatch):
    guard = ApiKeyMiddleware({"first": "k1", "second": "k2", "third": "k3"})
    calls: list[bool] = []
    compare = hmac.compare_digest

    def counting(a: bytes, b: bytes) -> bool:
        calls.append(compare(a, b))
        return calls[-1]

    monkeypatch.setattr(hmac, "compare_digest", counting)

    assert guard.identify("k1") == "first"
    assert calls == [True, False, False]
    calls.clear()
    assert guard.identify("nope") is None
    assert calls == [False, False, False]


# --- the token bucket with an injected clock ---
class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_bucket_allows_its_burst_then_says_when_the_next_token_comes():
    clock = FakeClock()
    buckets = TokenBuckets(rate=4.0, burst=3, clock=clock)

    assert [buckets.take("a") for _ in range(3)] == [0.0, 0.0, 0.0]
    assert buckets.take("a") == pytest.approx(0.25)


def test_a_refused_request_takes_no_token():
    clock = FakeClock()
    buckets = TokenBuckets(rate=1.0, burst=1, clock=clock)
    assert buckets.take("a") == 0.0

    assert buckets.take("a") == pytest.approx(1.0)
    clock.now += 0.25
    assert buckets.take("a") == pytest.approx(0.75)  # still counting towards the same token
    clock.now += 0.75
    assert buckets.take("a") == 0.0


def test_a_bucket_refills_at_the_rate_up_to_the_burst():
    clock = FakeClock()
    buckets = TokenBuckets(rate=2.0, burst=2, clock=clock)
    buckets.take("a")
    buckets.take("a")

    clock.now += 0.5  # one token back
    assert buckets.take("a") == 0.0
    assert buckets.take("a") > 0

    clock.now += 3600  # idle for long: never more than the burst
    assert [buckets.take("a") == 0.0 for _ in range(3)] == [True, True, False]


def test_clients_do_not_share_buckets():
    buckets = TokenBuckets(rate=1.0, burst=1, clock=FakeClock())
    assert buckets.take("a") == 0.0
    assert buckets.take("a") > 0
    assert buckets.take("b") == 0.0


def test_refilled_buckets_of_one_off_clients_are_forgotten():
    clock = FakeClock()
    buckets = TokenBuckets(rate=10.0, burst=5, clock=clock)
    for peer in range(1000):
        buckets.take(f"10.0.{peer // 256}.{peer % 256}")
        clock.now += 0.1  # each bucket is full again 0.1 s after its one request

    assert len(buckets) <= 2


def test_buckets_are_bounded_even_when_every_client_stays_busy():
    clock = FakeClock()
    buckets = TokenBuckets(rate=1.0, burst=5, clock=clock, max_clients=100)
    for peer in range(10_000):
        buckets.take(f"peer-{peer}")  # no time passes: no bucket refills

    assert len(buckets) == 100
    assert buckets.take("peer-9999") == 0.0  # the most recent clients are the ones remembered
    assert [buckets.take("peer-9999") == 0.0 for _ in range(4)] == [True, True, True, False]


@pytest.mark.parametrize(("rate", "burst"), [(0.0, 5), (-1.0, 5), (1.0, 0)])
def test_a_bucket_needs_a_positive_rate_and_burst(rate: float, burst: int):
    with pytest.raises(ValueError, match="rate limit"):
        TokenBuckets(rate=rate, burst=burst)


def test_a_malformed_api_keys_setting_is_refused_without_showing_the_keys():
    from infra.settings import SettingsError

    with pytest.raises(SettingsError) as refused:
        Settings.from_env({"LPS_API_KEYS": "ops=s3cretKEY,viewer"})
    assert "LPS_API_KEYS" in str(refused.value)
    assert "s3cretKEY" not in str(refused.value)


@pytest.mark.parametrize(
    "key", ["Xy7\\Lm9q", 'q"uoted', "q'uoted", "tab\there", "sp ace", "한국어키", "nul\x00", "é-accent"]
)
def test_a_key_that_would_show_escaped_in_a_log_is_refused_at_start_up_without_showing_it(key: str):
    from infra.settings import SettingsError

    with pytest.raises(SettingsError, match="LPS_API_KEYS: the key of 'ops' holds a character") as refused:
        Settings.from_strings({"api_keys": f"ops={key},viewer=view-c0ffee:read"})
    assert key not in str(refused.value)
    with pytest.raises(ValueError, match="LPS_API_KEYS: the key of 'ops'"):
        create_app(Settings(api_keys={"ops": key}))


@pytest.mark.parametrize("key", ["0f3a9c", "bo-7f3c9d1e2a4b", "aGVsbG8/d29ybGQ+==", "a:b", "k.e_y~1"])
def test_random_tokens_hex_and_base64_keys_are_accepted(key: str):
    assert Settings.from_strings({"api_keys": f"ops={key}"}).api_keys == {"ops": key}
