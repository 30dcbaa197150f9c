"""Typed application state."""

from aiohttp import web

from infra.auth_failures import FailedKeyLimits
from infra.broker import Publisher
from infra.enqueue import JobEnqueuer
from infra.job_counts import JobCounts
from infra.jobs import JobRepository
from infra.mongo import MainDatabase
from infra.reconciler_log import ReconcilerLog
from infra.scheduler import WatchScheduler
from infra.settings import Settings
from infra.ui_sessions import UiSessions
from infra.watches import WatchRepository
from schemas.codes import KeyRole
from service.job_operations import Caller, JobOperations
from service.listing_slots import ListingSlots
from service.queue_operations import QueueOperations
from service.shared import SharedResult

SETTINGS = web.AppKey("settings", Settings)
DATABASE = web.AppKey("database", MainDatabase)
JOBS = web.AppKey("jobs", JobRepository)
JOB_COUNTS = web.AppKey("job_counts", JobCounts)
PUBLISHER = web.AppKey("publisher", Publisher)
ENQUEUER = web.AppKey("enqueuer", JobEnqueuer)
RECONCILER_LOG = web.AppKey("reconciler_log", ReconcilerLog)
#: The queue stats body, shared by concurrent callers (see service.shared).
STATS = web.AppKey("stats", SharedResult)
WATCHES = web.AppKey("watches", WatchRepository)
#: Job listings in flight per client (service/listing_slots.py).
LISTING_SLOTS = web.AppKey("listing_slots", ListingSlots)
#: Listing, reading and re-driving jobs, for the API and the dashboard alike (service/job_operations.py).
JOB_OPERATIONS = web.AppKey("job_operations", JobOperations)
#: Pausing and resuming a job type's work (service/queue_operations.py).
QUEUE_OPERATIONS = web.AppKey("queue_operations", QueueOperations)
#: Dashboard sign-ins (service/ui/signin.py).
UI_SESSIONS = web.AppKey("ui_sessions", UiSessions)
#: Refused keys per address, shared by every gateway (service/auth.py); absent when refusals are not limited.
FAILED_KEYS = web.AppKey("failed_keys", FailedKeyLimits)
#: Runs a new watch's first search at once (the reconciler process's scheduler runs the rest).
SCHEDULER = web.AppKey("scheduler", WatchScheduler)
#: The name of the API key a request came with (never the key itself), for logs and per-client limits; the
#: dashboard sets the signed-in key's.
CLIENT_NAME = web.RequestKey("client_name", str)


def client_of(request: web.Request) -> str:
    """Who a per-client limit counts a request against: its API key's name, else its peer address (behind a proxy,
    the proxy's)."""
    return request.get(CLIENT_NAME) or request.remote or "unknown"


#: The role of the API key a request came with (see LPS_API_KEYS); unset without keys.
CLIENT_ROLE = web.RequestKey("client_role", KeyRole)


def caller_of(request: web.Request) -> Caller:
    """Who asks, as the API key middleware (or the dashboard's sign-in) stored it on the request."""
    return Caller(request.get(CLIENT_NAME), request.get(CLIENT_ROLE), client_of(request))
