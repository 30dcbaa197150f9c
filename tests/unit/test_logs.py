"""Structured logs: the JSON formatter's shape, secrets masked, and the job context across threads."""

from __future__ import annotations

import io
import logging

import pytest
from dramatiq.asyncio import EventLoopThread

from infra.logs import Redactor, configure_logging, job_context, secret_values
from infra.settings import Settings
from tests.log_capture import JOB_ID, MESSAGE_ID, lines
from tests.log_capture import captured as captured


def test_a_json_line_has_time_level_logger_message_process_and_thread_and_no_job_outside_one(captured):
    logger, stream = captured

    logger.warning("queue %s is %d deep", "search", 3)

    [line] = lines(stream)
    assert set(line) == {"time", "level", "logger", "message", "process", "thread"}
    assert line["time"].endswith("+00:00")
    assert (line["level"], line["logger"], line["message"]) == ("WARNING", logger.name, "queue search is 3 deep")
    assert isinstance(line["process"], int)
    assert line["thread"] == "MainThread"


def test_an_exception_is_one_field_of_one_line_with_passwords_and_secrets_masked(captured):
    logger, stream = captured

    try:
        raise ConnectionError("amqp://lps:hunter2@rabbit:5672/ refused; signing with s3cret-signing-key")
    except ConnectionError:
        logger.exception("cannot publish to amqp://lps:hunter2@rabbit:5672/")

    [line] = lines(stream)
    assert line["message"] == "cannot publish to amqp://lps:***@rabbit:5672/"
    assert "Traceback" in line["exception"]
    assert "ConnectionError" in line["exception"]
    assert "hunter2" not in stream.getvalue()
    assert "s3cret-signing-key" not in stream.getvalue()


def test_the_configured_secrets_are_the_ones_masked():
    settings = Settings(
        api_keys={"backoffice": "bo-7f3c9d1e2a4b"},
        outbox_secret="signing-secret",
        naver_client_secret="naver-secret",
        amqp_url="amqp://lps:correct-horse@rabbit:5672/",
        mongo_url="mongodb://lps:short@mongo:27017/",
    )

    assert set(secret_values(settings)) == {
        "bo-7f3c9d1e2a4b",
        "signing-secret",
        "naver-secret",
        "correct-horse",
        "short",  # masked whatever its length (as a whole token: see Redactor)
    }


def test_a_short_secret_is_masked_as_a_whole_token_and_never_cuts_ids_or_numbers_apart():
    redact = Redactor(["42", "k1", "long-secret-value"])

    assert redact("key k1, (k1) 'k1\\x00' attempt 42 of 5") == "key ***, (***) '***\\x00' attempt *** of 5"
    # Inside ids, numbers and words a short secret is not a token: those lines stay whole.
    assert (
        redact("job 6b0c94574ddefc2888135942 bulk1 k1x 4242 k1_a") == "job 6b0c94574ddefc2888135942 bulk1 k1x 4242 k1_a"
    )
    # A long secret is masked wherever it occurs, glued to other text too.
    assert redact("sig=long-secret-valueX") == "sig=***X"


def test_an_unknown_log_format_is_refused():
    with pytest.raises(ValueError, match="LPS_LOG_FORMAT"):
        configure_logging(Settings(log_format="yaml"))


def test_a_coroutine_run_on_the_event_loop_thread_logs_with_the_ids_of_the_worker_thread_job(captured):
    """What a worker does: its thread holds the job context and hands the attempt's coroutine to the loop thread."""
    logger, stream = captured
    loop_thread = EventLoopThread(logging.getLogger("lps.test.loop"))
    loop_thread.start()

    async def attempt() -> None:
        logger.info("searching")

    try:
        with job_context(JOB_ID, MESSAGE_ID):
            loop_thread.run_coroutine(attempt())
        loop_thread.run_coroutine(attempt())
    finally:
        loop_thread.stop()

    in_job, outside = lines(stream)
    assert in_job["thread"] != "MainThread"
    assert (in_job["job_id"], in_job["message_id"]) == (JOB_ID, MESSAGE_ID)
    assert "job_id" not in outside


def test_dramatiqs_bare_skip_warning_is_dropped_and_other_warnings_are_kept():
    from infra.logs import DropDramatiqSkipWarnings

    def record(level: int, msg: str) -> logging.LogRecord:
        return logging.LogRecord("dramatiq.worker.WorkerThread", level, __file__, 1, msg, ("search('x')",), None)

    keep = DropDramatiqSkipWarnings().filter
    assert not keep(record(logging.WARNING, "Message %s was skipped."))
    assert keep(record(logging.WARNING, "Message %s failed."))
    assert keep(record(logging.INFO, "message %s for job x skipped: no such job in this store"))


def test_pikas_connection_error_is_one_line_with_its_cause_and_other_loggers_keep_their_tracebacks():
    from infra.logs import PikaErrorsInOneLine

    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(PikaErrorsInOneLine())
    pika_log = logging.getLogger("pika.adapters.blocking_connection.test")
    lps_log = logging.getLogger(f"lps.test.{id(stream)}")
    for logger in (pika_log, lps_log):
        logger.addHandler(handler)
        logger.propagate = False
    try:
        try:
            raise TimeoutError("TCP connection attempt timed out: '127.0.0.1'")
        except TimeoutError:
            pika_log.exception("Error in %s().", "_create_connection")
            lps_log.exception("a publish failed")
    finally:
        for logger in (pika_log, lps_log):
            logger.removeHandler(handler)

    pika_line, *lps_lines = stream.getvalue().splitlines()
    assert pika_line == "Error in _create_connection(). (TimeoutError: TCP connection attempt timed out: '127.0.0.1')"
    assert lps_lines[0] == "a publish failed"
    assert lps_lines[1] == "Traceback (most recent call last):"
