"""What the gateway says of a request aiohttp's parser refused: the parser's words, never the bytes it quotes."""

import pytest
from aiohttp.http_exceptions import BadHttpMessage, BadStatusLine, HttpProcessingError, InvalidHeader, LineTooLong

from service.http_server import parser_reason


@pytest.mark.parametrize(
    ("refused", "reason"),
    [
        (LineTooLong(bytearray(b"X-API-Key: k1k1k1") + b"...", 8190), "Got more than 8190 bytes when reading"),
        (InvalidHeader(b"X-API-Key: k1\x00"), "Invalid HTTP header"),
        (BadStatusLine("GE'T /v1 HTTP/1.1"), "Bad status line"),
        (BadHttpMessage("Invalid header value char:\n\n  b'k1\\x00'\n   ^"), "Invalid header value char"),
        (BadHttpMessage("Duplicate 'Host' header found."), "Duplicate header found"),
        (BadHttpMessage(""), "unparsable request"),
    ],
)
def test_the_reason_keeps_the_parsers_words_and_drops_the_refused_bytes(refused: HttpProcessingError, reason: str):
    assert parser_reason(refused) == reason
    assert "k1" not in parser_reason(refused)
