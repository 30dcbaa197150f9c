"""The failures of the client commands (`lps submit`, `lps jobs`, `lps redrive`, …): each one line on stderr and
the exit status it calls for."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: Exit statuses of the client commands.
EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_TIMED_OUT = 0, 1, 2, 3


class CliError(Exception):
    """A failure the CLI reports as one line on stderr, exiting with `exit_code`."""

    exit_code = EXIT_FAILED


class UsageError(CliError):
    """The command was given something it cannot use (a missing file, a CSV without product_code, …)."""

    exit_code = EXIT_USAGE


def flatten_errors(errors: Any, prefix: str = "") -> list[str]:
    """Marshmallow's nested error messages as `field.sub: message` lines."""
    if isinstance(errors, Mapping):
        return [line for key, value in errors.items() for line in flatten_errors(value, f"{prefix}{key}.")]
    if isinstance(errors, list | tuple) and all(isinstance(item, str) for item in errors):
        # One field's messages are separate sentences: "Length must be between 1 and 200; must not be blank".
        joined = "; ".join(message.strip().rstrip(".") for message in errors)
        return [f"{prefix.rstrip('.')}: {joined}" if prefix else joined]
    if isinstance(errors, list | tuple):
        return [line for index, item in enumerate(errors) for line in flatten_errors(item, f"{prefix}{index}.")]
    return [f"{prefix.rstrip('.')}: {errors}" if prefix else str(errors)]
