"""Result codes, job enums and API key roles. Names and values are part of the public contract."""

from enum import IntEnum, StrEnum


class ErrorType(IntEnum):
    """The `result` of every response envelope. Never collides with an HTTP status it is not."""

    SUCCESS = 0
    FAIL = 1
    DB_RUN_FAILED = 10
    DB_ALREADY_SAME_KEY = 11
    DB_INVALID_KEY = 12
    DB_EMPTY_DATA = 13
    DB_INVALID_TYPE = 14
    JSON_PARSE_ERROR = 100
    INVALID_REQUEST_DATA = 101
    INTERNAL_EXCEPTION = 102
    HTTP_INVALID_CLIENT_REQUEST = 419
    HTTP_TO_MANY_REQUEST = 429
    HTTP_INVALID_CLIENT_ACCESS = 433
    # The LPS domain range starts at 1500.
    LPS_JOB_NOT_FOUND = 1500
    LPS_JOB_NOT_RETRYABLE = 1501  # re-drive asked for a job that is not DEAD
    LPS_WATCH_NOT_FOUND = 1502
    LPS_QUEUE_NOT_FOUND = 1503  # a queue name other than search or outbox (pause, resume)
    LPS_JOB_NOT_DISCARDABLE = 1504  # discard asked for a job that is not DEAD


#: The HTTP status that goes with each result code.
HTTP_STATUS: dict[ErrorType, int] = {
    ErrorType.SUCCESS: 200,
    ErrorType.FAIL: 500,
    ErrorType.DB_RUN_FAILED: 503,
    ErrorType.DB_ALREADY_SAME_KEY: 409,
    ErrorType.DB_INVALID_KEY: 400,
    ErrorType.DB_EMPTY_DATA: 404,
    ErrorType.DB_INVALID_TYPE: 400,
    ErrorType.JSON_PARSE_ERROR: 400,
    ErrorType.INVALID_REQUEST_DATA: 400,
    ErrorType.INTERNAL_EXCEPTION: 500,
    ErrorType.HTTP_INVALID_CLIENT_REQUEST: 419,
    ErrorType.HTTP_TO_MANY_REQUEST: 429,
    ErrorType.HTTP_INVALID_CLIENT_ACCESS: 433,
    ErrorType.LPS_JOB_NOT_FOUND: 404,
    ErrorType.LPS_JOB_NOT_RETRYABLE: 409,
    ErrorType.LPS_WATCH_NOT_FOUND: 404,
    ErrorType.LPS_QUEUE_NOT_FOUND: 404,
    ErrorType.LPS_JOB_NOT_DISCARDABLE: 409,
}


class _NamedIntEnum(IntEnum):
    """An int enum stored and shown by its name (documents stay readable in ad-hoc queries)."""

    def __str__(self) -> str:
        return self.name


class JobStatus(_NamedIntEnum):
    """Where a job is in its life: the `status` of every job document, and the one place that says what each status
    means and who moves a job out of it. Every arrow between them, and every path that ends a job (who can make one
    DEAD), is in `infra/lifecycle.py`; each is one conditional update in `infra.jobs.JobRepository`.

    PENDING and RUNNING jobs are *active* (`active: true`: the work in hand, and a product has at most one active
    SEARCH job); DONE and DEAD jobs have ended (`finished_at` set) and expire LPS_RETENTION_DAYS after it.
    """

    #: Waiting for a worker: just submitted, a retry waiting out its backoff (`run_after`), deferred, or re-driven.
    #: Moved on by the claim of the worker its message reaches (RUNNING). If the message never comes, the reconciler
    #: publishes it again: an unconfirmed publish after LPS_RECONCILE_GRACE, a lost message once
    #: LPS_RECONCILE_LOST_AFTER past `run_after`. The reconciler makes it DEAD when the broker dead-lettered its
    #: message.
    PENDING = 1
    #: A worker holds its lease (`lease_until`) and runs an attempt. Moved on by that worker when the attempt ends:
    #: DONE, PENDING again (a retry or a deferral) or DEAD. If the worker dies, by whoever first sees the expired
    #: lease: a redelivered message's worker takes the job over (RUNNING again), or the reconciler makes it PENDING
    #: and publishes it; either makes it DEAD when the lost attempt was its last. The reconciler makes it DEAD when
    #: the broker dead-lettered its message.
    RUNNING = 2
    #: Ended with its output (a search's `result`, even an incomplete one; a delivery's `delivery`). Nobody moves it
    #: on: it expires after LPS_RETENTION_DAYS.
    DONE = 3
    #: Ended for good without an output: a permanent failure, its attempts exhausted (a lost last attempt too), or
    #: its message dead-lettered (`last_error` says which). Moved on only by an operator's re-drive (PENDING again,
    #: fresh attempts: the API's retry, `lps redrive`, the dashboard); else it expires after LPS_RETENTION_DAYS.
    DEAD = 4


#: The statuses of the work in hand (`active: true`) and of jobs that have ended (`finished_at` set): one definition
#: for every query, count and report that tells them apart.
ACTIVE_STATUSES = (JobStatus.PENDING, JobStatus.RUNNING)
ENDED_STATUSES = (JobStatus.DONE, JobStatus.DEAD)


def status_names(statuses: tuple[JobStatus, ...]) -> list[str]:
    """The statuses as jobs store them (`status` holds the name)."""
    return [status.name for status in statuses]


def has_ended(status_name: str) -> bool:
    """Whether a job whose `status` is this name has ended (DONE or DEAD)."""
    return status_name in status_names(ENDED_STATUSES)


class JobType(_NamedIntEnum):
    SEARCH = 1  # heavy: a browser search
    OUTBOX = 2  # light: delivery to the external API


class KeyRole(StrEnum):
    """What an API key may do: the suffix of its LPS_API_KEYS entry (`name=key:read`). Without a known suffix the
    whole value is the key, and it is ADMIN (the format before roles)."""

    ADMIN = "admin"  # reads and changes (searches, re-drives, watches)
    READ = "read"  # only reads: every other method is refused with HTTP_INVALID_CLIENT_ACCESS

    @staticmethod
    def may_change(role: "KeyRole | None") -> bool:
        """Whether a caller with this role may change anything (search, re-drive, watches, pause, discard); `None`,
        a gateway without keys, lets anyone. The one place the API, its operations and the dashboard ask."""
        return role is not KeyRole.READ


class Priority(StrEnum):
    HIGH = "HIGH"
    NORMAL = "NORMAL"
    LOW = "LOW"


class AttemptOutcome(StrEnum):
    """How one attempt ended: the `outcome` of a `history` entry."""

    DONE = "DONE"  # the job is DONE
    RETRY = "RETRY"  # failed; the job is PENDING again until `run_after`
    DEAD = "DEAD"  # failed for good (permanent error or attempts exhausted)
    LOST = "LOST"  # its worker stopped mid-attempt (lease expired); recorded by whoever recovered the job
    # Its source's turn did not come (pacing, an open circuit breaker) or its worker was stopping: PENDING again
    # until `run_after`, the attempt given back. Not a `history` entry (the job counts `deferrals` and shows the last
    # in `deferred`).
    DEFERRED = "DEFERRED"


class JobErrorType(StrEnum):
    """`last_error.type` / history `error.type` written by LPS itself (sources add their own outcomes,
    e.g. BLOCKED or PARSE_FAIL, and deliveries DELIVERY_*)."""

    WORKER_LOST = "WORKER_LOST"  # the worker stopped during the attempt; the job is retried
    # The worker was asked to stop during the attempt and gave it back (deferred, no attempt spent).
    WORKER_STOPPED = "WORKER_STOPPED"
    ATTEMPTS_EXHAUSTED = "ATTEMPTS_EXHAUSTED"  # the worker stopped during the job's last attempt
    DEAD_LETTER = "DEAD_LETTER"  # the broker dead-lettered the job's message
    TIMEOUT = "TIMEOUT"  # the attempt exceeded its time limit
    INTERNAL = "INTERNAL"  # an unexpected exception in LPS's own code
    CONFIG = "CONFIG"  # the deployment cannot run this job (missing credentials, source not enabled)
    SOURCE_MISSING = "SOURCE_MISSING"  # a delivery whose search job no longer exists
    DELIVERY_UNREACHABLE = "DELIVERY_UNREACHABLE"
    DELIVERY_FAILED = "DELIVERY_FAILED"
    DELIVERY_REJECTED = "DELIVERY_REJECTED"
