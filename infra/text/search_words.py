"""The words a SEARCH job is found by (`GET /v1/lps/jobs?q=`, the jobs page's box): its keyword and model number split
as the matcher splits titles (`infra.text.words.segments`: "갤럭시버즈3케이스" is 갤럭시, 버즈3, 케이스), lower case,
stored on the job as `words` when it is recorded and served by the `words_created_at` index.

A model number is also stored without its separators ("SM-R630" is found by `sm-r630` and `smr630`). A query is
split the same way, and a job matches when it has every word of it, in any order.
"""

from __future__ import annotations

from infra.text.folding import SEPARATORS, normalize
from infra.text.words import segments

#: The most words one job stores (a keyword is at most 200 characters: far fewer in practice).
MAX_JOB_WORDS = 40


def _split(text: str) -> list[str]:
    return [segment.text for segment in segments(normalize(text))] if text.strip() else []


def job_words(keyword: str, model_no: str | None = None) -> list[str]:
    """What a job with this keyword and model number is found by, each word once, in order."""
    words = _split(keyword)
    if model_no:
        words += _split(model_no)
        bare = SEPARATORS.sub("", normalize(model_no))
        if bare:
            words.append(bare)
    return list(dict.fromkeys(words))[:MAX_JOB_WORDS]


def query_words(q: str) -> list[str]:
    """The words a query asks for (every one must match), each once."""
    return list(dict.fromkeys(_split(q)))
