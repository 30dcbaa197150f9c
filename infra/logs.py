"""Log lines as text or as one JSON object per line (LPS_LOG_FORMAT), with the job each line is about.

The job a thread is working on is a context variable: the worker's JobLogContext middleware binds it for the
message in hand, and every line logged meanwhile carries `job_id` and `message_id`, including lines logged by
the attempt's coroutines on the event loop thread (asyncio runs a coroutine handed over from another thread in
a copy of that thread's context). A line may also name its job itself: `log.info(..., extra=job_extra(...))`.

Secrets never reach a log: passwords in URLs and the configured secret values are masked in every line,
exception text included.
"""

from __future__ import annotations

import contextlib
import json
import logging
import re
from collections.abc import Iterable, Iterator
from contextvars import ContextVar, Token
from dataclasses import dataclass
from datetime import UTC, datetime
from urllib.parse import urlsplit

from infra.settings import Settings

FORMATS = ("text", "json")
#: The text format of the `lps` commands (the Dramatiq CLI's workers keep Dramatiq's own).
TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
MASK = "***"
#: Every configured secret is masked, whatever its length. One at least this long is masked wherever it occurs, even
#: inside other text: a long random value does not occur by chance. A shorter one (an API key like `k1`) is masked
#: only as a whole token, not touching a letter, digit or `_`: as a substring it would cut job ids, numbers and words
#: apart ("k1" in "bulk1", "42" in every id holding it), leaving lines that mislead. A key leaks as a token of its own
#: (a header value, a quoted string: `b'X-API-Key: k1\\x00'`), so whole tokens are where it is masked; the price is
#: that the same word standing alone elsewhere in a line is masked too, which errs on the safe side.
WHOLE_TOKEN_BELOW = 8

# scheme://user:password@host -> scheme://user:***@host
_URL_PASSWORD = re.compile(r"(?P<head>[A-Za-z][A-Za-z0-9+.-]*://[^/\s:@]*:)[^/\s@]+@")


@dataclass(frozen=True, slots=True)
class JobContext:
    job_id: str | None
    message_id: str | None = None


_job: ContextVar[JobContext | None] = ContextVar("lps_log_job", default=None)


def bind_job(job_id: str | None, message_id: str | None = None) -> Token[JobContext | None]:
    """Lines logged in this context from now on are about this job (until `unbind_job` with the token)."""
    return _job.set(JobContext(job_id, message_id))


def unbind_job(token: Token[JobContext | None]) -> None:
    _job.reset(token)


@contextlib.contextmanager
def job_context(job_id: str | None, message_id: str | None = None) -> Iterator[JobContext]:
    context = JobContext(job_id, message_id)
    token = _job.set(context)
    try:
        yield context
    finally:
        _job.reset(token)


def current_job() -> JobContext | None:
    return _job.get()


def job_extra(job_id: object, message_id: str | None = None) -> dict[str, str]:
    """`extra=` for a line about a job other than the one in context (e.g. the reconciler's)."""
    return {"job_id": str(job_id)} | ({"message_id": message_id} if message_id else {})


def secret_values(settings: Settings) -> list[str]:
    """The configured secrets a line must never show: API keys, signing and Naver secrets, URL passwords."""
    candidates = [*settings.api_keys.values(), settings.outbox_secret, settings.naver_client_secret]
    for url in (settings.amqp_url, settings.mongo_url):
        with contextlib.suppress(ValueError):
            candidates.append(urlsplit(url or "").password or "")
    # Longest first: a secret containing another is masked whole.
    return sorted({value for value in candidates if value}, key=len, reverse=True)


class Redactor:
    """Masks URL passwords and the given secrets (see WHOLE_TOKEN_BELOW for how short ones are matched)."""

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        # One pass over the line, longest secret first: a secret containing another is masked whole.
        alternatives = [_secret_pattern(secret) for secret in sorted({s for s in secrets if s}, key=len, reverse=True)]
        self._secrets = re.compile("|".join(alternatives)) if alternatives else None

    def __call__(self, text: str) -> str:
        text = _URL_PASSWORD.sub(rf"\g<head>{MASK}@", text)
        if self._secrets is not None:
            text = self._secrets.sub(MASK, text)
        return text


def _secret_pattern(secret: str) -> str:
    escaped = re.escape(secret)
    return escaped if len(secret) >= WHOLE_TOKEN_BELOW else rf"(?<!\w){escaped}(?!\w)"


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, process, thread; job_id and message_id when the line
    is about a job (given with `extra=`, else the job in context); exception and stack as text when there are."""

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        super().__init__()
        self._redact = Redactor(secrets)

    def format(self, record: logging.LogRecord) -> str:
        document: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": self._redact(record.getMessage()),
            "process": record.process,
            "thread": record.threadName,
        }
        job = current_job()
        for key in ("job_id", "message_id"):
            value = getattr(record, key, None) or (getattr(job, key) if job else None)
            if value:
                document[key] = str(value)
        if record.exc_info:
            document["exception"] = self._redact(self.formatException(record.exc_info))
        elif record.exc_text:
            document["exception"] = self._redact(record.exc_text)
        if record.stack_info:
            document["stack"] = self._redact(self.formatStack(record.stack_info))
        return json.dumps(document, ensure_ascii=False, default=str)


class RedactingFormatter(logging.Formatter):
    """Text lines as another formatter writes them, with the secrets masked."""

    def __init__(self, inner: logging.Formatter, secrets: Iterable[str] = ()) -> None:
        super().__init__()
        self.inner = inner
        self._redact = Redactor(secrets)

    def format(self, record: logging.LogRecord) -> str:
        return self._redact(self.inner.format(record))


class DropDramatiqSkipWarnings(logging.Filter):
    """Dramatiq's worker logs every skipped message as a bare `WARNING Message … was skipped.`; the status
    middleware has already said at INFO why it skipped it (an ended job, a message left from an earlier run), so
    the bare line is dropped rather than read as trouble."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (record.levelno == logging.WARNING and record.msg == "Message %s was skipped.")


class PikaErrorsInOneLine(logging.Filter):
    """pika logs a failed connection attempt at ERROR with a traceback of its own internals, several records for one
    failure; Dramatiq (a consumer's connection) or LPS (a publish, a health check) reports the same failure where it
    matters, with its cause. pika's records keep their message and get the exception's text appended instead of its
    traceback, so a broker that cannot be reached reads as that, not as a crash."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.name.partition(".")[0] == "pika" and record.exc_info:
            error = record.exc_info[1]
            record.msg, record.args = f"{record.getMessage()} ({type(error).__name__}: {error})", None
            record.exc_info, record.exc_text = None, None
        return True


#: Filters every handler of the root logger gets (once, however often logging is configured).
HANDLER_FILTERS = (DropDramatiqSkipWarnings, PikaErrorsInOneLine)


def configure_logging(settings: Settings, *, level: int | str | None = None) -> None:
    """The root logger in LPS_LOG_FORMAT, at `level` (None: as it is).

    Handlers already there keep their streams and get the format: the Dramatiq CLI's write to its log pipe, and in
    text mode keep Dramatiq's layout. Without any, one stderr handler is added.
    """
    if settings.log_format not in FORMATS:
        raise ValueError(f"LPS_LOG_FORMAT={settings.log_format!r}: use one of {', '.join(FORMATS)}")
    root = logging.getLogger()
    if level is not None:
        root.setLevel(level.upper() if isinstance(level, str) else level)
    if not root.handlers:
        root.addHandler(logging.StreamHandler())
    # pika narrates every connection step at INFO.
    logging.getLogger("pika").setLevel(logging.WARNING)
    secrets = secret_values(settings)
    for handler in root.handlers:
        for kind in HANDLER_FILTERS:
            if not any(isinstance(each, kind) for each in handler.filters):
                handler.addFilter(kind())
        if settings.log_format == "json":
            handler.setFormatter(JsonFormatter(secrets))
            continue
        inner = handler.formatter
        if isinstance(inner, RedactingFormatter):
            inner = inner.inner  # configured twice: wrap the original once
        elif isinstance(inner, JsonFormatter):
            inner = None
        handler.setFormatter(RedactingFormatter(inner or logging.Formatter(TEXT_FORMAT), secrets))
