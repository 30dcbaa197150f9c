"""What the gateway reports about the system: job counts, queue depths, sources, breakers and proxies
(`GET /v1/lps/queue/stats`), a queue's pause (`POST /v1/lps/queues/{queue}/pause` and `/resume`), and readiness
(`/healthz`, `/readyz`)."""

from marshmallow import Schema, fields, validate

from schemas.envelope import EnvelopeSchema


class QueueInfoSchema(Schema):
    messages = fields.Integer(metadata={"description": "messages ready for a worker (not those a worker holds)"})
    consumers = fields.Integer()
    delayed = fields.Integer(
        metadata={"description": "jobs of this queue waiting for a retry's backoff (the `delayed` count)"}
    )
    dead = fields.Integer(metadata={"description": "dead letters in the queue's .XQ"})


class PauseStateSchema(Schema):
    paused = fields.Boolean(required=True, metadata={"description": "whether this job type's pools take messages"})
    changed_by = fields.String(metadata={"description": "the API key's name that paused (or resumed) it last"})
    changed_at = fields.DateTime(metadata={"description": "when it was paused (or resumed) last"})


class QueuePauseResponseSchema(EnvelopeSchema):
    queue = fields.String(required=True, metadata={"description": "search or outbox"})
    paused = fields.Boolean(required=True)
    changed_by = fields.String()
    changed_at = fields.DateTime()
    changed = fields.Boolean(
        required=True, metadata={"description": "false when it already was so (nothing recorded, who and when kept)"}
    )


class BreakerStatsSchema(Schema):
    state = fields.String(metadata={"description": "CLOSED, OPEN (searches deferred) or HALF_OPEN (a probe decides)"})
    open_until = fields.DateTime(metadata={"description": "while OPEN: when a probe may run"})
    blocked = fields.Integer(metadata={"description": "BLOCKED searches among the source's last `window`"})
    trips_at = fields.Integer(metadata={"description": "BLOCKED searches in the window that open it"})
    window = fields.Integer(metadata={"description": "LPS_BREAKER_WINDOW"})
    trips = fields.Integer(metadata={"description": "times it opened"})
    consecutive_trips = fields.Integer(metadata={"description": "trips since a probe last closed it"})
    changed_at = fields.DateTime()


class SourceStatsSchema(Schema):
    rate = fields.String(metadata={"description": "LPS_SOURCE_RATES for this source (absent: not paced)"})
    tokens_used = fields.Integer(metadata={"description": "searches started in the rate's current window"})
    tokens_left = fields.Integer()
    pace = fields.Float(
        metadata={
            "description": "the share of `rate` searched at now (1: all of it; halved fleet-wide by a BLOCKED search, "
            "climbing back over LPS_PACE_RECOVERY); absent when LPS_PACE_RECOVERY=0"
        }
    )
    concurrency = fields.Integer(metadata={"description": "LPS_SOURCE_CONCURRENCY for this source"})
    in_flight = fields.Integer(metadata={"description": "searches holding a concurrency slot"})
    waiting = fields.Integer(metadata={"description": "searches waiting now for a turn (LPS_SOURCE_WAIT at most)"})
    deferred_jobs = fields.Integer(metadata={"description": "PENDING jobs deferred until this source's turn"})
    breaker = fields.Nested(BreakerStatsSchema)


class ProxyStatsSchema(Schema):
    outcomes = fields.Dict(
        keys=fields.String(),
        values=fields.Integer(),
        metadata={
            "description": "searches through this proxy, fleet-wide, by outcome: answered (the shop answered), "
            "blocked, unreachable (the proxy refused or failed the request), failed (a timeout, a crash)"
        },
    )
    benched = fields.Integer(metadata={"description": "times a worker benched it (LPS_COUPANG_PROXY_COOLDOWN)"})
    benched_now = fields.Boolean(metadata={"description": "its latest bench has not ended"})
    benched_until = fields.DateTime(allow_none=True, metadata={"description": "the end of its latest bench"})
    last_outcome = fields.String(allow_none=True)
    last_at = fields.DateTime(allow_none=True, metadata={"description": "when its latest search ended"})


class StatsResponseSchema(EnvelopeSchema):
    stats = fields.Dict(
        keys=fields.String(),
        values=fields.Integer(),
        required=True,
        metadata={
            "description": "PENDING / RUNNING: live; DONE / DEAD: jobs that ended so (a re-driven job counts "
            "each time it ends), up to counted_until"
        },
    )
    counted_until = fields.DateTime(metadata={"description": "DONE and DEAD include every job that ended before"})
    computed_at = fields.DateTime(
        metadata={
            "description": "when these figures were computed: an answer is reused for LPS_STATS_MAX_AGE seconds and, "
            "while the next one is computed, served up to LPS_STATS_MAX_STALE seconds old"
        }
    )
    by_type = fields.Dict(keys=fields.String(), values=fields.Dict(), required=True)
    paused = fields.Dict(
        keys=fields.String(),
        values=fields.Nested(PauseStateSchema),
        metadata={"description": "by queue (search, outbox): whether its work is paused, who paused it and when"},
    )
    delayed = fields.Dict(
        keys=fields.String(),
        values=fields.Integer(),
        metadata={
            "description": "by job type: PENDING jobs whose run_after is ahead (retries waiting out their backoff), "
            "counted in MongoDB; RabbitMQ's count of a .DQ misses them, as workers hold delayed messages unacked"
        },
    )
    queue_type = fields.String(
        validate=validate.OneOf(["classic", "quorum"]),
        metadata={
            "description": "LPS_QUEUE_TYPE: classic (one priority queue per job type) or quorum (replicated, one "
            "queue per priority band, counted together in `queues`)"
        },
    )
    queues = fields.Dict(keys=fields.String(), values=fields.Nested(QueueInfoSchema))
    reconciler = fields.Dict(
        keys=fields.String(), values=fields.Integer(), metadata={"description": "what reconcilers did, by action"}
    )
    sources = fields.Dict(
        keys=fields.String(),
        values=fields.Nested(SourceStatsSchema),
        metadata={"description": "each source's fleet-wide pacing and circuit breaker"},
    )
    proxies = fields.Dict(
        keys=fields.String(),
        values=fields.Nested(ProxyStatsSchema),
        metadata={"description": "with LPS_COUPANG_PROXIES: each proxy (scheme://host:port, no credentials)"},
    )


class HealthResponseSchema(EnvelopeSchema):
    status = fields.String(metadata={"description": "`up` (liveness)"})
    checks = fields.Dict(keys=fields.String(), values=fields.String())
    queue_type = fields.String(
        metadata={
            "description": "readiness: LPS_QUEUE_TYPE, classic or quorum (with several nodes in LPS_AMQP_URL, "
            "any that answers makes RabbitMQ ok)"
        }
    )
