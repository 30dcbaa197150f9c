"""All configuration, read from `LPS_*` environment variables. Defaults live here and nowhere else."""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field, fields, replace
from enum import StrEnum
from typing import Any, NamedTuple, Self
from urllib.parse import SplitResult, unquote, urlsplit
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from schemas.codes import JobType, KeyRole, Priority
from schemas.offers import SourceName


def _parse_map(text: str) -> dict[str, str]:
    """`"A=1, B=2"` -> {"A": "1", "B": "2"}."""
    pairs = (item.split("=", 1) for item in text.split(",") if item.strip())
    return {key.strip(): value.strip() for key, value in pairs}


def _split_role(value: str) -> tuple[str, KeyRole]:
    """`"k1:read"` -> ("k1", READ); a key without a known role suffix is an admin key (the old format)."""
    key, _, role = value.rpartition(":")
    return (key, KeyRole(role)) if key and role in KeyRole else (value, KeyRole.ADMIN)


#: What an API key may be written with. A key is masked in every log line by its literal text; a key with a
#: backslash, a quote, a blank or non-ASCII text shows escaped in some lines (a traceback's `b'X-API-Key: …\\x00'`,
#: a repr), where the literal is not found. Random tokens (`openssl rand -hex 32`, base64) fit.
API_KEY_ALPHABET = re.compile(r"[A-Za-z0-9._~+/=:-]+")


def check_api_keys(keys: Mapping[str, str]) -> None:
    """ValueError naming the key (never its value) that is empty or written outside API_KEY_ALPHABET."""
    for name, key in keys.items():
        if not key:
            # An empty key would let in every request that sends an empty header.
            raise ValueError(f"the key of {name!r} is empty (name=key,name=key)")
        if not API_KEY_ALPHABET.fullmatch(key):
            raise ValueError(
                f"the key of {name!r} holds a character other than letters, digits and . _ ~ + / = : - (a blank, "
                "a quote, a backslash or non-ASCII text would show escaped in logs, where it cannot be masked); "
                "use a random token, e.g. `openssl rand -hex 32`"
            )


def parse_api_keys(text: str) -> dict[str, str]:
    """`"ops=k1:admin,viewer=k2:read,old=k3"` -> the keys by name, roles stripped."""
    keys = {name: _split_role(value)[0] for name, value in _parse_map(text).items()}
    check_api_keys(keys)
    return keys


def parse_api_key_roles(text: str) -> dict[str, KeyRole]:
    """`"ops=k1:admin,viewer=k2:read,old=k3"` -> {"viewer": READ}: the keys that are not admin (the default)."""
    roles = {name: _split_role(value)[1] for name, value in _parse_map(text).items()}
    return {name: role for name, role in roles.items() if role != KeyRole.ADMIN}


def _parse_list(text: str) -> tuple[str, ...]:
    return tuple(item.strip() for item in text.split(",") if item.strip())


def parse_timezone(text: str) -> str:
    """LPS_TIMEZONE: an IANA zone name the system knows (Asia/Seoul, UTC, Europe/Berlin)."""
    try:
        ZoneInfo(text.strip())
    except (ZoneInfoNotFoundError, ValueError):
        raise ValueError(f"unknown time zone {text!r} (an IANA name such as Asia/Seoul)") from None
    return text.strip()


class QueueType(StrEnum):
    """How LPS's queues are kept in RabbitMQ (LPS_QUEUE_TYPE)."""

    CLASSIC = "classic"  # on one node, with per-message priorities (x-max-priority)
    QUORUM = "quorum"  # replicated over the cluster's nodes, one queue per priority band


def parse_queue_type(text: str) -> QueueType:
    try:
        return QueueType(text.strip().lower())
    except ValueError:
        raise ValueError(f"use one of {', '.join(QueueType)}") from None


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


def role_of(roles: Mapping[str, KeyRole], name: str) -> KeyRole:
    """The role of the API key called `name` among `api_key_roles` (which lists only the keys that are not ADMIN)."""
    return roles.get(name, KeyRole.ADMIN)


@dataclass(frozen=True, slots=True)
class Rate:
    """`limit` searches per `unit` (s or m) of one source, for the whole fleet (LPS_SOURCE_RATES)."""

    limit: int
    unit: str = "s"

    @property
    def period(self) -> float:
        """The window's length in seconds."""
        return _RATE_UNITS[self.unit]

    def __str__(self) -> str:
        return f"{self.limit}/{self.unit}"


_RATE_UNITS = {"s": 1.0, "m": 60.0}
_RATE = re.compile(r"([0-9]+)\s*/\s*([sm])")
#: The most searches one window may hold: the limiter keeps one timestamp per search of the window.
MAX_RATE_LIMIT = 1000


def _source_items(text: str) -> list[tuple[str, str]]:
    """`"coupang=2/s, naver=10/s"` -> [("coupang", "2/s"), ("naver", "10/s")], every source known and named once."""
    items: list[tuple[str, str]] = []
    for item in (part.strip() for part in text.split(",")):
        if not item:
            continue
        source, equals, value = item.partition("=")
        source, value = source.strip(), value.strip()
        if not equals or not source or not value:
            raise ValueError(f"{item!r} is not SOURCE=VALUE")
        if source not in _SOURCE_NAMES:
            raise ValueError(f"{item!r}: unknown source {source!r} (known: {', '.join(_SOURCE_NAMES)})")
        if any(source == seen for seen, _ in items):
            raise ValueError(f"{item!r}: {source} is given twice")
        items.append((source, value))
    return items


def parse_source_rates(text: str) -> dict[str, Rate]:
    """LPS_SOURCE_RATES: `coupang=2/s,naver=10/s` (COUNT/s or COUNT/m, COUNT a whole number from 1)."""
    rates: dict[str, Rate] = {}
    for source, value in _source_items(text):
        match = _RATE.fullmatch(value)
        if match is None:
            raise ValueError(f"{source}={value!r}: expected COUNT/s or COUNT/m (e.g. {source}=2/s)")
        limit = int(match.group(1))
        if not 1 <= limit <= MAX_RATE_LIMIT:
            raise ValueError(f"{source}={value!r}: COUNT must be 1 to {MAX_RATE_LIMIT} (use /m for slower)")
        rates[source] = Rate(limit, match.group(2))
    return rates


def parse_source_concurrency(text: str) -> dict[str, int]:
    """LPS_SOURCE_CONCURRENCY: `coupang=4` (searches in flight at once, fleet-wide, a whole number from 1)."""
    limits: dict[str, int] = {}
    for source, value in _source_items(text):
        if not re.fullmatch(r"[0-9]+", value) or int(value) < 1:
            raise ValueError(f"{source}={value!r}: expected a whole number of searches from 1 (e.g. {source}=4)")
        limits[source] = int(value)
    return limits


#: Proxy schemes Chromium can use from a browser context.
PROXY_SCHEMES = ("http", "https", "socks5")


@dataclass(frozen=True, slots=True)
class Proxy:
    """One egress proxy of the browser (LPS_COUPANG_PROXIES). Its credentials stay out of repr, str and `label`."""

    scheme: str
    host: str
    port: int
    username: str = field(default="", repr=False)
    password: str = field(default="", repr=False)

    @property
    def label(self) -> str:
        """`scheme://host:port`: what logs, metrics and errors name it by (never its credentials)."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{self.scheme}://{host}:{self.port}"

    def __str__(self) -> str:
        return self.label


def _proxy_parts(item: str) -> SplitResult:
    if "://" not in item:
        raise ValueError("expected SCHEME://[USER:PASSWORD@]HOST:PORT")
    try:
        parts = urlsplit(item)
        parts.port  # noqa: B018 (a bad port raises here)
    except ValueError:
        raise ValueError("expected SCHEME://[USER:PASSWORD@]HOST:PORT with a port from 1 to 65535") from None
    return parts


def parse_proxy(item: str) -> Proxy:
    """One proxy URL; a malformed one raises a ValueError that names its bad part, never its credentials."""
    parts = _proxy_parts(item.strip())
    scheme, host, port = parts.scheme.lower(), parts.hostname or "", parts.port
    where = f"{scheme}://{host}:{port}" if host and port else "a proxy"
    if scheme not in PROXY_SCHEMES:
        raise ValueError(f"{where}: scheme {scheme!r} is not one of {', '.join(PROXY_SCHEMES)}")
    if not host:
        raise ValueError(f"{scheme}:// proxy without a host")
    if port is None or port == 0:
        raise ValueError(f"{scheme}://{host}: the port is missing (e.g. {scheme}://{host}:3128)")
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        raise ValueError(f"{where}: a proxy URL has no path, query or fragment")
    username, password = unquote(parts.username or ""), unquote(parts.password or "")
    if password and not username:
        raise ValueError(f"{where}: a password without a user name")
    if username and scheme == "socks5":
        raise ValueError(f"{where}: Chromium does not support SOCKS5 proxies with credentials")
    return Proxy(scheme, host, port, username, password)


class WebOrigin(NamedTuple):
    """What a browser names a page's site by (its Origin header): scheme, host and port (the default one when the
    URL leaves it out), lower-case."""

    scheme: str
    host: str
    port: int


_DEFAULT_PORTS = {"http": 80, "https": 443}


def web_origin(url: str) -> WebOrigin | None:
    """The origin of an http(s) URL (an Origin header, or a Referer's page); None for anything else."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in _DEFAULT_PORTS or not parts.hostname:
        return None
    return WebOrigin(scheme, parts.hostname.lower(), port or _DEFAULT_PORTS[scheme])


def parse_web_origins(text: str) -> tuple[str, ...]:
    """LPS_UI_ORIGINS: `https://lps.example.com,http://10.0.0.5:8080`: origins only (no path, user or query)."""
    items = _parse_list(text)
    for item in items:
        parts = urlsplit(item)
        if web_origin(item) is None or parts.username or parts.path not in ("", "/") or parts.query or parts.fragment:
            raise ValueError(f"{item!r} is not an origin: http(s)://HOST[:PORT], as a browser's address bar shows it")
    return items


def parse_proxies(text: str) -> tuple[str, ...]:
    """LPS_COUPANG_PROXIES: `http://user:pass@10.0.0.1:3128,http://10.0.0.2:3128`, each checked, none twice."""
    items = _parse_list(text)
    labels: set[str] = set()
    for number, item in enumerate(items, start=1):
        try:
            label = parse_proxy(item).label
        except ValueError as error:
            raise ValueError(f"proxy #{number}: {error}") from None
        if label in labels:
            raise ValueError(f"proxy #{number}: {label} is given twice")
        labels.add(label)
    return items


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


@dataclass(frozen=True, slots=True)
class Band:
    """One queue of a job type and the Dramatiq actor its messages name."""

    queue: str
    actor_name: str
    #: Dramatiq's actor priority: among the messages a worker holds, it takes the lowest number first.
    worker_priority: int


@dataclass(frozen=True, slots=True)
class JobSpec:
    """One job type as the gateway, the workers and the tools see it: the one declaration they all read."""

    job_type: JobType
    #: The RabbitMQ queue of its messages (`search`, `outbox`, with LPS_QUEUE_PREFIX) and its worker pool: in
    #: quorum mode the stem of its band queues (`queues`).
    queue: str
    queue_type: QueueType
    #: The Dramatiq actor that works it.
    actor_name: str
    max_attempts: int
    #: Seconds one attempt may take; its lease is this plus LPS_LEASE_MARGIN.
    time_limit: float
    default_priority: str
    #: The pool's default size (`lps worker` flags override it).
    processes: int
    threads: int
    #: Where the pool serves its Prometheus metrics (0: not served).
    metrics_port: int

    @property
    def bands(self) -> tuple[Band, ...]:
        """Its queues with their actors, highest priority first: the one classic queue (priorities are per message
        there), or one quorum queue per priority."""
        if self.queue_type is QueueType.CLASSIC:
            return (Band(self.queue, self.actor_name, 0),)
        return tuple(self.band(priority) for priority in Priority)

    def band(self, priority: Priority) -> Band:
        """The band of a priority: in quorum mode `search.high` / `search_high`, `search.normal` / `search`,
        `search.low` / `search_low`, a worker preferring the higher among the messages it holds."""
        if self.queue_type is QueueType.CLASSIC:
            return self.bands[0]
        rank = list(Priority).index(priority)
        actor = self.actor_name if priority is Priority.NORMAL else f"{self.actor_name}_{priority.name.lower()}"
        return Band(f"{self.queue}.{priority.name.lower()}", actor, rank * 10)

    @property
    def queues(self) -> tuple[str, ...]:
        return tuple(band.queue for band in self.bands)

    @property
    def pool(self) -> str:
        """The pool's name on the command line (`lps worker search`)."""
        return self.job_type.name.lower()


#: Other accepted names (LPS_NAVER_SECRET, the short form of LPS_NAVER_CLIENT_SECRET).
_ALIASES = {"naver_client_secret": "LPS_NAVER_SECRET"}
#: Settings read from another variable rather than their own (api_key_roles comes from LPS_API_KEYS).
_DERIVED = frozenset({"api_key_roles"})


#: Every source a setting may name (LPS_SOURCE_RATES, LPS_SOURCE_CONCURRENCY).
_SOURCE_NAMES = tuple(str(name) for name in SourceName)
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
        return _parse_list(raw)
    if name == "priority_levels":
        return {key: int(value) for key, value in _parse_map(raw).items()}
    if isinstance(default, Mapping):
        return _parse_map(raw)
    return raw
