"""A defect an attack on a running stack found (issue 11), reproduced before its fix: the static source's
keyword directives (`#crash`, `#slow=N`, …) are plain text unless LPS_TEST_DIRECTIVES is on."""

from __future__ import annotations

import asyncio

from actors.sources.static import StaticSource
from schemas.offers import SourceOutcome

# 1. A test-only source or directive must be unreachable from a production configuration.


async def test_keyword_directives_are_plain_text_unless_test_directives_are_on():
    production = StaticSource(test_directives=False)
    for keyword in ("x #crash", "x #fatal", "x #blocked", "x #fail", "x #slow=600", "x #empty"):
        answer = await asyncio.wait_for(production.search({"keyword": keyword}), timeout=5)
        assert answer.outcome is SourceOutcome.FOUND
        assert len(answer.offers) == 5
