"""How the HTTP API validates what a client sends: strict schemas, visible text, whole-value patterns, and the
field helpers every request and response schema shares (an OpenAPI description, a filter's true / false)."""

import re
from datetime import UTC, datetime
from typing import Any

from bson import ObjectId
from marshmallow import RAISE, Schema, ValidationError, fields, pre_load, validate


def word_boolean(metadata: dict[str, str]) -> fields.Boolean:
    """A query filter's true / false: only the words themselves, so a filter has one spelling (marshmallow's Boolean
    would also take 1, yes, on, …)."""
    return fields.Boolean(truthy={"true"}, falsy={"false"}, metadata=metadata)


def doc(description: str) -> dict[str, str]:
    """A field's metadata: its description in the OpenAPI document."""
    return {"description": description}


NOT_TEXT = "Not valid Unicode text: contains a lone surrogate."


def is_text(value: str) -> bool:
    """True unless `value` holds a lone surrogate (U+D800..U+DFFF), which neither UTF-8 nor BSON can carry.

    JSON lets a client write one as an escape (`"\\ud800"`); the decoder then hands it over as a str.
    """
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def printable(value: str) -> str:
    """`value` with its lone surrogates written as `\\udXXX` escapes: safe to echo in an answer or a log."""
    return value.encode("utf-8", "backslashreplace").decode("utf-8")


class FullMatch(validate.Regexp):
    """Regexp that must match the whole value (marshmallow's uses re.match, where `$` lets "AB\\n" through).

    Its error names the pattern, so a client sees what is expected.
    """

    default_message = "must match {regex}"

    def __call__(self, value: Any) -> Any:
        if self.regex.fullmatch(value) is None:
            raise ValidationError(self._format_error(value))
        return value


class Text(fields.String):
    """A string that is Unicode text: a lone surrogate is refused by field (it would fail later, in BSON)."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> str:
        text = super()._deserialize(value, attr, data, **kwargs)
        if not is_text(text):
            raise ValidationError(NOT_TEXT)
        return text


class StrictSchema(Schema):
    """Request schemas: unknown fields are refused, and so are field names that are not Unicode text."""

    class Meta:
        unknown = RAISE

    @pre_load
    def refuse_names_that_are_not_text(self, data: Any, **_: Any) -> Any:
        # Named by their escaped spelling: the name itself cannot be written in a UTF-8 answer.
        if isinstance(data, dict) and (bad := [key for key in data if isinstance(key, str) and not is_text(key)]):
            raise ValidationError({printable(key): [NOT_TEXT] for key in bad})
        return data


#: ECMA-262's whitespace (its `\s`), spelled out: Python's `\s` differs (it takes U+001C..U+001F, leaves U+FEFF), so
#: a bare `\S` would let the document and the gateway disagree on what is blank. Both engines read this class alike.
ECMA_WHITESPACE = r"\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"


#: Characters that show nothing by themselves: zero-width spaces and joiners, direction marks, the soft hyphen,
#: invisible operators, variation selectors, the Hangul fillers. Allowed inside text (a joiner between two
#: syllables), but a keyword of nothing else is blank as a person reads it.
INVISIBLE = (
    r"\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u2060-\u2064\u206a-\u206f\u3164"
    r"\ufe00-\ufe0f\uffa0"
)


#: C0 and C1 controls (tab and line ends included), DEL, and the bidirectional embeddings, overrides and isolates
#: that make a keyword show reversed or out of order in every listing, log and delivery that prints it.
CONTROLS = r"\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069"


#: Visible text: no control anywhere, and at least one character that is neither whitespace nor invisible. One
#: pattern, since the document (apispec) carries one per field.
VISIBLE_TEXT = rf"[^{CONTROLS}]*[^{CONTROLS}{ECMA_WHITESPACE}{INVISIBLE}][^{CONTROLS}]*"


_CONTROL = re.compile(rf"[{CONTROLS}]")


class VisibleText(FullMatch):
    """VISIBLE_TEXT, refused with what is wrong: a control character, or nothing visible."""

    def __init__(self) -> None:
        super().__init__(VISIBLE_TEXT)

    def __call__(self, value: Any) -> Any:
        if self.regex.fullmatch(value) is None:
            raise ValidationError(
                "must not contain control characters or text direction overrides"
                if _CONTROL.search(value)
                else "must not be blank"
            )
        return value


class UtcDateTimeField(fields.AwareDateTime):
    """An ISO 8601 instant (UTC when it names no offset), loaded as UTC. One that UTC would put before year 1 or
    after 9999 is the earliest or latest instant there is: as a lower bound it means "all" or "none" all the same."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> datetime:
        moment = super()._deserialize(value, attr, data, **kwargs)
        try:
            return moment.astimezone(UTC)
        except OverflowError:
            return (datetime.min if moment.year == 1 else datetime.max).replace(tzinfo=UTC)


class ObjectIdField(fields.String):
    """A job id (24 hex digits), loaded as an ObjectId: nothing else reaches a query."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> ObjectId:
        text = super()._deserialize(value, attr, data, **kwargs)
        if not re.fullmatch(r"[0-9a-f]{24}", text):
            raise ValidationError("must be a job id (24 lower-case hex digits)")
        return ObjectId(text)
