"""Pure units: the contract's codes, the envelope and settings parsing."""

from __future__ import annotations

import pytest

from infra.settings import Settings, SettingsError
from infra.source_rates import Rate
from schemas.codes import HTTP_STATUS, ErrorType, JobStatus, JobType
from schemas.envelope import drop_none, envelope


def test_result_codes_have_the_contract_values():
    assert {e.name: e.value for e in ErrorType} == {
        "SUCCESS": 0, "FAIL": 1, "DB_RUN_FAILED": 10, "DB_ALREADY_SAME_KEY": 11, "DB_INVALID_KEY": 12,
        "DB_EMPTY_DATA": 13, "DB_INVALID_TYPE": 14, "JSON_PARSE_ERROR": 100, "INVALID_REQUEST_DATA": 101,
        "INTERNAL_EXCEPTION": 102, "HTTP_INVALID_CLIENT_REQUEST": 419, "HTTP_TO_MANY_REQUEST": 429,
        "HTTP_INVALID_CLIENT_ACCESS": 433, "LPS_JOB_NOT_FOUND": 1500,
        "LPS_JOB_NOT_RETRYABLE": 1501, "LPS_WATCH_NOT_FOUND": 1502, "LPS_QUEUE_NOT_FOUND": 1503,
        "LPS_JOB_NOT_DISCARDABLE": 1504,
    }  # fmt: skip
    assert {s.name: s.value for s in JobStatus} == {"PENDING": 1, "RUNNING": 2, "DONE": 3, "DEAD": 4}
    assert {t.name: t.value for t in JobType} == {"SEARCH": 1, "OUTBOX": 2}
    assert set(HTTP_STATUS) == set(ErrorType)


def test_result_codes_that_are_not_http_statuses_never_look_like_one():
    http_like = {e for e in ErrorType if 100 <= e.value <= 599}
    assert all(HTTP_STATUS[e] == e.value or e.value in (100, 101, 102) for e in http_like)


def test_envelope_drops_none_at_any_depth_but_keeps_falsy_values():
    body = envelope(ErrorType.SUCCESS, job={"a": None, "b": 0, "c": [{"d": None, "e": False}], "f": ""}, g=None)
    assert body == {"result": 0, "job": {"b": 0, "c": [{"e": False}], "f": ""}}
    assert drop_none([None, {"x": None}]) == [None, {}]


def test_api_keys_carry_a_role_and_keys_without_one_are_admin():
    settings = Settings.from_env({"LPS_API_KEYS": "ops=k1:admin, viewer=k2:read, old=k3, colon=a:b"})
    assert settings.api_keys == {"ops": "k1", "viewer": "k2", "old": "k3", "colon": "a:b"}
    assert [settings.key_role(name) for name in ("ops", "viewer", "old", "colon")] == [
        "admin",
        "read",
        "admin",
        "admin",
    ]
    assert Settings.from_env(settings.to_env()) == settings  # a child process gets the same keys and roles
    assert Settings(api_keys={"direct": "k"}).key_role("direct") == "admin"


def test_settings_read_every_lps_variable_with_types():
    settings = Settings.from_env(
        {
            "LPS_MONGO_DB": "other",
            "LPS_HTTP_PORT": "9000",
            "LPS_RETRY_MIN_BACKOFF": "0.5",
            "LPS_SEARCH_SOURCES": "static, naver",
            "LPS_API_KEYS": "backoffice=k1,ops=k2",
            "LPS_PRIORITY_LEVELS": "HIGH=8,NORMAL=4,LOW=0",
            "LPS_NAVER_CLIENT_ID": "id",
            "LPS_NAVER_SECRET": "secret",
            "UNRELATED": "x",
        }
    )
    assert settings.mongo_db == "other"
    assert settings.http_port == 9000
    assert settings.retry_min_backoff == 0.5
    assert settings.search_sources == ("static", "naver")
    assert settings.api_keys == {"backoffice": "k1", "ops": "k2"}
    assert settings.broker_priority(JobType.SEARCH, "HIGH") == 8
    assert settings.broker_priority(JobType.SEARCH, None) == 4  # SEARCH defaults to NORMAL
    assert (settings.naver_client_id, settings.naver_client_secret) == ("id", "secret")
    assert settings.mongo_url is None  # unset: the embedded server is started


def test_settings_name_the_variable_of_a_bad_value():
    with pytest.raises(ValueError, match="LPS_HTTP_PORT"):
        Settings.from_env({"LPS_HTTP_PORT": "eighty"})


def test_source_rates_and_concurrency_are_read_per_source_in_seconds_or_minutes():
    settings = Settings.from_env(
        {"LPS_SOURCE_RATES": "coupang=2/s, naver=600/m", "LPS_SOURCE_CONCURRENCY": "coupang=4", "LPS_SOURCE_WAIT": "2"}
    )
    assert settings.source_rates == {"coupang": Rate(2, "s"), "naver": Rate(600, "m")}
    assert (settings.source_rates["naver"].period, str(settings.source_rates["naver"])) == (60.0, "600/m")
    assert settings.source_concurrency == {"coupang": 4}
    assert Settings.from_env(settings.to_env()) == settings
    assert Settings().source_rates == {}  # unset: not paced
    assert (Settings().breaker_threshold, Settings().breaker_window, Settings().breaker_cooldown) == (0.5, 20, 60.0)


@pytest.mark.parametrize(
    ("variable", "value", "bad_part"),
    [
        ("LPS_SOURCE_RATES", "coupang=fast", "coupang='fast': expected COUNT/s or COUNT/m"),
        ("LPS_SOURCE_RATES", "coupang=2/s,naver=3/h", "naver='3/h': expected COUNT/s or COUNT/m"),
        ("LPS_SOURCE_RATES", "coupang=2.5/s", "coupang='2.5/s'"),
        ("LPS_SOURCE_RATES", "coupang=0/s", "coupang='0/s': COUNT must be 1 to 1000"),
        ("LPS_SOURCE_RATES", "copang=2/s", "unknown source 'copang'"),
        ("LPS_SOURCE_RATES", "coupang 2/s", "'coupang 2/s' is not SOURCE=VALUE"),
        ("LPS_SOURCE_RATES", "coupang=2/s,coupang=1/s", "coupang is given twice"),
        ("LPS_SOURCE_CONCURRENCY", "coupang=0", "coupang='0': expected a whole number of searches from 1"),
        ("LPS_SOURCE_CONCURRENCY", "coupang=four", "coupang='four'"),
        ("LPS_SOURCE_CONCURRENCY", "=4", "'=4' is not SOURCE=VALUE"),
        ("LPS_BREAKER_THRESHOLD", "150", "must be between 0 and 1"),
        ("LPS_PACE_RECOVERY", "-60", "must be between 0 and 86400"),
    ],
)
def test_a_malformed_pacing_setting_names_the_variable_and_the_bad_part(variable, value, bad_part):
    with pytest.raises(SettingsError) as refused:
        Settings.from_env({variable: value})
    message = str(refused.value)
    assert message.startswith(f"{variable}={value!r}: ")
    assert bad_part in message


def test_queue_names_carry_the_prefix():
    settings = Settings(queue_prefix="dev_")
    assert settings.job(JobType.SEARCH).queue == "dev_search"
    assert settings.job(JobType.OUTBOX).queue == "dev_outbox"


def test_settings_survive_the_trip_through_a_child_environment():
    settings = Settings(
        mongo_url="mongodb://x", search_sources=("static",), api_keys={"a": "b"}, retry_min_backoff=0.25, lease_margin=2
    )
    assert Settings.from_env(settings.to_env()) == settings


def test_secrets_never_show_in_the_settings_repr():
    settings = Settings(api_keys={"backoffice": "key-123"}, outbox_secret="sig-456", naver_client_secret="nav-789")
    shown = repr(settings)
    assert "key-123" not in shown
    assert "sig-456" not in shown
    assert "nav-789" not in shown
