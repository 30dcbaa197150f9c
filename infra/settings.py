"""All configuration, read from `LPS_*` environment variables. Defaults live here and nowhere else."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any, Self
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from infra.api_keys import parse_api_key_roles, parse_api_keys, role_of
from infra.proxy_urls import parse_proxies
from infra.queue_topology import Band, JobSpec, QueueType, parse_queue_type
from infra.setting_text import parse_list, parse_map
from infra.source_rates import Rate, parse_source_concurrency, parse_source_rates
from infra.web_origins import parse_web_origins
from schemas.codes import JobType, KeyRole, Priority
from schemas.offers import SourceName


def parse_timezone(text: str) -> str:
    """LPS_TIMEZONE: an IANA zone name the system knows (Asia/Seoul, UTC, Europe/Berlin)."""
    try:
        ZoneInfo(text.strip())
    except (ZoneInfoNotFoundError, ValueError):
        raise ValueError(f"unknown time zone {text!r} (an IANA name such as Asia/Seoul)") from None
    return text.strip()


class SettingsError(ValueError):
    """A malformed LPS_* value: the message names the variable and the part that is wrong."""


#: Seconds a stopping worker process has past LPS_SHUTDOWN_GRACE to record the attempts it gave back and close its
#: clients; past it the process ends itself (actors.middleware: RuntimeShutdown, StopOnce).
SHUTDOWN_RECORDING_TIME = 10.0


#: Why a pool that consumes the outbox does not start when it would sign every delivery with an empty key
#: (`Settings.refuses_unsigned_outbox`): `lps worker`, the Dramatiq CLI's worker processes and `lps dev` say so.
UNSIGNED_OUTBOX_REFUSED = (
    "LPS_OUTBOX_URL is set but LPS_OUTBOX_SECRET is not: every delivery would be signed with an empty key. "
    "Set LPS_OUTBOX_SECRET to the secret the back office verifies "
    "(or LPS_OUTBOX_ALLOW_UNSIGNED=1 to deliver unsigned anyway, for tests)."
)


@dataclass(frozen=True, slots=True)
class Settings:
    """Secrets (API keys, signing secret, Naver secret) stay out of repr, so out of logs and test output."""

    # Unset: the embedded MongoDB-compatible server is started (dev and tests).
    mongo_url: str | None = None
    mongo_db: str = "lps"
    # How long a MongoDB call may wait for a server; for the API, the budget of all of one request's MongoDB work
    # together (infra.mongo.deadline), past which it answers DB_RUN_FAILED.
    mongo_timeout_ms: int = 3000
    # One node, or several `;`-separated (Dramatiq's convention): clients connect to the first that answers.
    amqp_url: str = "amqp://guest:guest@127.0.0.1:5672/"
    # Prepended to every queue name: lets test runs and dev stacks share one RabbitMQ.
    queue_prefix: str = ""
    # `classic` (one priority queue per job type, on one node) or `quorum` (replicated queues that survive the loss
    # of a node, one per priority band: infra/broker.py). A queue's type cannot change in place: the two use
    # different names, so switching is a migration (docs/scaling.md, "Several RabbitMQ nodes").
    queue_type: str = QueueType.CLASSIC
    http_host: str = "127.0.0.1"
    http_port: int = 8080
    # "name=key,name=key"; empty: no authentication.
    # A key may end in `:admin` (the default) or `:read`: "ops=k1:admin,viewer=k2:read".
    api_keys: Mapping[str, str] = field(default_factory=dict, repr=False)
    # The role of each key that is not admin, read from LPS_API_KEYS too (a name missing here is admin).
    api_key_roles: Mapping[str, KeyRole] = field(default_factory=dict)
    # Requests per second each client (its API key's name, or its address without keys) may make; 0: no limit.
    # Counted in each gateway process: N gateways allow N times this rate.
    rate_limit_per_second: float = 0.0
    # Requests a client that has been idle may make at once (the token bucket's size).
    rate_limit_burst: int = 20
    # With API keys: requests refused for a missing or unknown key that one peer address may make, on average per
    # second and at once; past them it gets 429 instead of 433, so guessing keys is slow. 0: no limit. Counted in the
    # store (infra/auth_failures.py): every gateway shares one budget per address.
    auth_failure_rate_per_second: float = 1.0
    auth_failure_burst: int = 10
    # Job listings (GET /v1/lps/jobs, the dashboard's lists) one client may have in flight at once per gateway
    # process; past them it gets 429 at once (service/listing_slots.py).
    listing_concurrency: int = 2
    # How long a dashboard sign-in lasts (seconds) before the operator signs in again (infra/ui_sessions.py).
    ui_session_lifetime: float = 43_200.0
    # The origins the dashboard's pages are opened from ("https://lps.example.com"): a form POST whose Origin (else
    # Referer) names another is refused. Empty: the address and port the request reached (an address the gateway
    # listens on; `localhost` too on loopback). Behind a proxy, name the proxy's public origin here.
    ui_origins: tuple[str, ...] = ()
    # Seconds a client may take to send a request body once its headers are in; past it the request is refused
    # (419) and the connection closed. Without a bound, a client that never sends its body holds a connection
    # open forever. 10 s carries the largest body (1 MiB) over a link of about 1 Mbit/s.
    body_read_timeout: float = 10.0
    # Seconds a /v1/lps/queue/stats answer is reused; concurrent callers share one computation. Up to
    # stats_max_stale seconds, an older answer is served at once while the next one is computed.
    stats_max_age: float = 1.0
    stats_max_stale: float = 10.0
    # DONE / DEAD totals (infra/job_counts.py) count jobs that ended at least this many seconds ago (an update on
    # its way must not be walked past), at most this many newly ended jobs per stats call.
    stats_settle: float = 5.0
    stats_catch_up_limit: int = 5000
    coupang_base_url: str = "https://www.coupang.com"
    naver_base_url: str = "https://openapi.naver.com"
    naver_client_id: str = ""
    naver_client_secret: str = field(default="", repr=False)
    outbox_url: str | None = None
    outbox_secret: str = field(default="", repr=False)
    # The outbox pool refuses to start when LPS_OUTBOX_URL is set and LPS_OUTBOX_SECRET is not (it would sign every
    # delivery with an empty key); this lets it deliver so anyway, for tests and receivers that check no signature.
    outbox_allow_unsigned: bool = False
    browser_path: str = "chromium"
    # A Chromium is retired after this many searches (long-running browsers leak memory).
    browser_max_searches: int = 200
    browser_navigation_timeout: float = 20.0
    # After DOMContentLoaded, how long a page's own scripts get to show its product list (never longer than the
    # navigation timeout); a page that shows none by then is read as it stands.
    browser_render_timeout: float = 10.0
    # A Coupang result list is read once its item count has not changed for this many seconds (within the render
    # timeout): lists whose later items the page's script adds after the first ones are read whole. A list still
    # growing at the render timeout is a partial read (the source is not complete).
    coupang_settle: float = 1.5
    # Proxies of the Coupang browser, "http://user:pass@host:port,http://host:port" (http, https, socks5 without
    # credentials): each search's browser context uses the next one in turn; one whose search was blocked, or that
    # failed to connect, is benched for `coupang_proxy_cooldown` seconds (per worker process). Empty: no proxy.
    coupang_proxies: tuple[str, ...] = field(default=(), repr=False)
    coupang_proxy_cooldown: float = 300.0
    # Result pages read per Coupang search (72 items each); later pages only when the first had results.
    coupang_max_pages: int = 2
    naver_display: int = 100
    naver_sort: str = "sim"
    # The sources this deployment searches: used when a product names none, and the only ones a product may name.
    search_sources: tuple[str, ...] = (SourceName.COUPANG, SourceName.NAVER)
    # Fleet-wide pacing per source, kept in MongoDB (infra/source_limits/): "coupang=2/s,naver=600/m" and
    # "coupang=4" (searches in flight at once). A source left out is not paced.
    source_rates: Mapping[str, Rate] = field(default_factory=dict)
    source_concurrency: Mapping[str, int] = field(default_factory=dict)
    # Seconds a search may wait for its source's turn before the source is deferred (its job comes back later, the
    # attempt given back). Short: a waiting search holds a worker thread (never a browser).
    source_wait: float = 5.0
    # A paced source that answers BLOCKED is slowed down fleet-wide: its pace is halved (at most once per
    # `breaker_cooldown`, down to a tenth of LPS_SOURCE_RATES) and climbs back to the full rate over this many
    # seconds. 0: always the full rate.
    pace_recovery: float = 300.0
    # The circuit breaker per source: it opens (fleet-wide) when at least this share of the source's last
    # `breaker_window` searches were BLOCKED (0: no breaker), for `breaker_cooldown` seconds, doubling on each
    # consecutive trip up to `breaker_max_cooldown`; then one probe search decides whether it closes.
    breaker_threshold: float = 0.5
    breaker_window: int = 20
    breaker_cooldown: float = 60.0
    breaker_max_cooldown: float = 1800.0
    # TEST ONLY: lets the static source's keyword directives (#fail, #slow=N, #crash, …) misbehave on purpose.
    # Off, they are plain keyword text: no client can make a worker crash or stall through a keyword.
    test_directives: bool = False
    # Load the matcher's Korean analyzer (~1-3 s, ~330 MB) as a search pool boots, so that its first search does not
    # wait for it (actors.worker.AnalyzerWarmUp). Off, the first search loads it (even a keyword and titles in Latin
    # letters: the matcher reads origins and the keyword's words with it). The tests turn it off for the pools they
    # start (tests/conftest.py), but where an attempt's time limit is close. The gateway
    # always loads it as it starts: a job's words are split within the request's MongoDB budget, which a load blows.
    analyzer_warm_up: bool = True
    # Per job type (read through `Settings.job`): attempts, time limit, pool size, metrics port.
    search_max_attempts: int = 5
    outbox_max_attempts: int = 8
    # Searches are heavy (a browser each): few threads; deliveries are light HTTP calls: many.
    search_processes: int = 1
    search_threads: int = 2
    outbox_processes: int = 1
    outbox_threads: int = 16
    retry_min_backoff: float = 5.0
    # Well below RabbitMQ's 30-minute consumer_timeout: delayed retries are held unacked.
    retry_max_backoff: float = 600.0
    blocked_backoff_factor: float = 4.0
    # Seconds one attempt may take; a job's lease is this plus a margin. Both far below consumer_timeout.
    search_time_limit: float = 120.0
    outbox_time_limit: float = 30.0
    # How long past its time limit a RUNNING job's lease lasts before another worker may take it over.
    lease_margin: float = 30.0
    # Seconds an attempt in flight gets to finish once its worker is asked to stop (SIGTERM); then its work is
    # cancelled and the attempt given back (WORKER_STOPPED, no attempt spent).
    shutdown_grace: float = 20.0
    # Finished jobs are removed this many days after they ended, price_history entries after they were recorded.
    retention_days: int = 30
    price_history_days: int = 365
    # The reconciler: seconds between passes; how old an unconfirmed publish or a finished search without its
    # delivery must be before it acts; how long past run_after a PENDING job counts as lost (generous: a long
    # queue is not a lost message, and a duplicate message only costs a skipped delivery).
    reconcile_interval: float = 10.0
    reconcile_grace: float = 30.0
    reconcile_lost_after: float = 900.0
    reconcile_batch: int = 200
    # Watches: the shortest `every` a watch may ask for (seconds); the time zone of `cron` expressions; seconds between
    # the scheduler's passes (it runs in the reconciler process); how many due watches one pass takes at most; the
    # longest a watch's runs are shifted by (each watch its own fixed share of min(this, its interval), so a list
    # due at 09:00 is spread out); how many of its last lowest prices GET /v1/lps/watches/{id} shows.
    watch_min_interval: float = 300.0
    timezone: str = "Asia/Seoul"
    watch_poll_interval: float = 5.0
    #: Seconds between a worker pool's reads of its job type's pause (infra/queue_pauses.py): how soon it stops.
    pause_poll_interval: float = 2.0
    watch_batch: int = 1000
    watch_max_jitter: float = 600.0
    watch_history: int = 10
    # Broker priority (0..MAX_PRIORITY) of each request priority, and each job type's default.
    priority_levels: Mapping[str, int] = field(
        default_factory=lambda: {Priority.HIGH: 9, Priority.NORMAL: 5, Priority.LOW: 1}
    )
    default_priority: Mapping[str, str] = field(
        default_factory=lambda: {JobType.SEARCH.name: Priority.NORMAL, JobType.OUTBOX.name: Priority.HIGH}
    )
    # "text" or "json" (one JSON object per line, with job_id and message_id on lines about a job).
    log_format: str = "text"
    # Where each worker pool serves its Prometheus metrics. A pool serves on the port of the queue it consumes, so
    # both pools fit on one machine; a second pool of the same kind there needs its own port. 0: not served.
    metrics_host: str = "127.0.0.1"
    search_metrics_port: int = 9191
    outbox_metrics_port: int = 9192
    # Worker processes write their samples here (prometheus_client's multiprocess mode), one directory per pool run.
    metrics_dir: str = field(default_factory=lambda: os.path.join(tempfile.gettempdir(), "lps-metrics"))
    # `lps dev` only: the ports of the embedded MongoDB server (without LPS_MONGO_URL), and with --demo of the demo shop
    # and the delivery receiver (the gateway's is LPS_HTTP_PORT). Its flags (--mongo-port, …) override them.
    dev_mongo_port: int = 27017
    dev_shop_port: int = 8090
    dev_receiver_port: int = 9000
    # Where each running `lps dev` stack records its store (tools/dev_stacks.py), for `lps report` without
    # LPS_MONGO_URL. One directory per user of the machine.
    dev_stacks_dir: str = field(
        default_factory=lambda: os.path.join(tempfile.gettempdir(), f"lps-dev-stacks-{os.getuid()}")
    )

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Self:
        """Build settings from `LPS_<FIELD NAME>` variables; unset or empty ones keep their defaults."""
        environ = os.environ if environ is None else environ
        values: dict[str, str] = {}
        for spec in fields(cls):
            if spec.name in _DERIVED:
                continue
            raw = environ.get(f"LPS_{spec.name.upper()}") or environ.get(_ALIASES.get(spec.name, ""), "")
            if raw:
                values[spec.name] = raw
        return cls.from_strings(values)

    @classmethod
    def from_strings(cls, values: Mapping[str, str]) -> Self:
        converted: dict[str, Any] = {}
        defaults = cls()
        for name, raw in values.items():
            default = getattr(defaults, name)
            converted[name] = _convert(name, raw, default)
        if "api_keys" in values:
            converted["api_key_roles"] = parse_api_key_roles(values["api_keys"])
        return cls(**converted)

    def key_role(self, name: str) -> KeyRole:
        """The role of the API key called `name`: ADMIN unless LPS_API_KEYS gave it `:read`."""
        return role_of(self.api_key_roles, name)

    def to_env(self) -> dict[str, str]:
        """The `LPS_*` variables that rebuild these settings in a child process (`from_env`)."""
        env: dict[str, str] = {}
        for spec in fields(self):
            value = getattr(self, spec.name)
            if value is None or spec.name in _DERIVED:
                continue
            if spec.name == "api_keys":
                value = ",".join(f"{key}={item}:{self.key_role(key)}" for key, item in value.items())
            elif isinstance(value, Mapping):
                value = ",".join(f"{key}={item}" for key, item in value.items())
            elif isinstance(value, tuple):
                value = ",".join(value)
            env[f"LPS_{spec.name.upper()}"] = str(value)
        return env

    def with_overrides(self, **changes: Any) -> Self:
        return replace(self, **changes)

    def job(self, job_type: JobType) -> JobSpec:
        """Everything about one job type, from the `LPS_<TYPE>_*` settings above."""
        name = job_type.name.lower()
        return JobSpec(
            job_type=job_type,
            queue=f"{self.queue_prefix}{name}",
            queue_type=QueueType(self.queue_type),
            actor_name=name,
            max_attempts=getattr(self, f"{name}_max_attempts"),
            time_limit=getattr(self, f"{name}_time_limit"),
            default_priority=self.default_priority[job_type.name],
            processes=getattr(self, f"{name}_processes"),
            threads=getattr(self, f"{name}_threads"),
            metrics_port=getattr(self, f"{name}_metrics_port"),
        )

    def broker_priority(self, job_type: JobType, priority: str | None) -> int:
        return self.priority_levels[priority or self.job(job_type).default_priority]

    def refuses_unsigned_outbox(self, queues: Collection[str] | None = None) -> bool:
        """Whether a pool consuming `queues` (None or empty: every queue) must not start: it consumes the outbox's
        queues, LPS_OUTBOX_URL is set, LPS_OUTBOX_SECRET is not, and LPS_OUTBOX_ALLOW_UNSIGNED is off. Only a pool
        that consumes the outbox signs deliveries; UNSIGNED_OUTBOX_REFUSED says why it stops."""
        if not self.outbox_url or self.outbox_secret or self.outbox_allow_unsigned:
            return False
        return not queues or not set(self.job(JobType.OUTBOX).queues).isdisjoint(queues)

    def queues(self) -> list[str]:
        """Every queue of every job type (without Dramatiq's `.DQ` / `.XQ`): what publishers declare."""
        return [queue for job_type in JobType for queue in self.job(job_type).queues]

    def message_band(self, job_type: JobType, broker_priority: int) -> Band:
        """Where a job's message goes: the job type's one band (classic), or in quorum mode its priority's band (a
        broker priority between two levels goes to the lower one's band)."""
        spec = self.job(job_type)
        reached = [name for name, level in self.priority_levels.items() if broker_priority >= level]
        return spec.band(Priority(max(reached, key=lambda name: self.priority_levels[name], default=Priority.LOW)))


#: Other accepted names (LPS_NAVER_SECRET, the short form of LPS_NAVER_CLIENT_SECRET).
_ALIASES = {"naver_client_secret": "LPS_NAVER_SECRET"}


#: Settings read from another variable rather than their own (api_key_roles comes from LPS_API_KEYS).
_DERIVED = frozenset({"api_key_roles"})


#: Settings whose values are parsed by a function of their own.
_PARSERS: dict[str, Any] = {
    "queue_type": lambda text: parse_queue_type(text).value,
    "timezone": parse_timezone,
    "api_keys": parse_api_keys,
    "source_rates": parse_source_rates,
    "source_concurrency": parse_source_concurrency,
    "coupang_proxies": parse_proxies,
    "ui_origins": parse_web_origins,
}


#: Settings whose values may hold credentials: an error names the bad part, never echoes the value.
_SECRET_VALUES = frozenset({"coupang_proxies", "api_keys"})


#: Inclusive bounds of numeric settings that have them.
_BOUNDS: dict[str, tuple[float, float]] = {
    "http_port": (1, 65535),
    "dev_mongo_port": (1, 65535),
    "dev_shop_port": (1, 65535),
    "dev_receiver_port": (1, 65535),
    "search_metrics_port": (0, 65535),
    "outbox_metrics_port": (0, 65535),
    "breaker_threshold": (0.0, 1.0),
    "breaker_window": (1, 10_000),
    "breaker_cooldown": (0.0, 86_400.0),
    "breaker_max_cooldown": (0.0, 86_400.0),
    "source_wait": (0.0, 600.0),
    "pace_recovery": (0.0, 86_400.0),
    "coupang_proxy_cooldown": (0.0, 86_400.0),
    "coupang_settle": (0.0, 60.0),
    "ui_session_lifetime": (60.0, 86_400.0 * 30),
    "listing_concurrency": (1, 1_000),
    "watch_min_interval": (1.0, 86_400.0 * 366),
    "watch_poll_interval": (0.1, 3_600.0),
    "pause_poll_interval": (0.1, 60.0),
    "watch_batch": (1, 100_000),
    "watch_max_jitter": (0.0, 86_400.0),
    "watch_history": (0, 1_000),
}


def _convert(name: str, raw: str, default: Any) -> Any:
    try:
        value = _convert_value(name, raw, default)
        if name in _BOUNDS and not _BOUNDS[name][0] <= value <= _BOUNDS[name][1]:
            low, high = _BOUNDS[name]
            raise ValueError(f"must be between {low:g} and {high:g}")
        return value
    except ValueError as error:
        shown = "" if name in _SECRET_VALUES else f"={raw!r}"
        raise SettingsError(f"LPS_{name.upper()}{shown}: {error}") from None


def _convert_value(name: str, raw: str, default: Any) -> Any:
    if name in _PARSERS:
        return _PARSERS[name](raw)
    if isinstance(default, bool):
        return raw.strip().lower() in {"1", "true", "yes", "on"}
    if isinstance(default, int):
        return int(raw)
    if isinstance(default, float):
        return float(raw)
    if isinstance(default, tuple):
        return parse_list(raw)
    if name == "priority_levels":
        return {key: int(value) for key, value in parse_map(raw).items()}
    if isinstance(default, Mapping):
        return parse_map(raw)
    return raw
