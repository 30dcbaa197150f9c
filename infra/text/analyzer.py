"""Words as a Korean reader splits them: the Kiwi morphological analyzer, loaded once per process.

Korean writes compounds without spaces: "갤럭시버즈3케이스" is 갤럭시 + 버즈3 + 케이스, a case; "필름카메라" is
필름 + 카메라, a camera. Kiwi (kiwipiepy) splits a word into its morphemes; `infra.text.words` groups them into
the segments the matcher compares. Why Kiwi and not another analyzer: docs/sources.md, "Matching".

The model (the `kiwipiepy_model` package, ~100 MB on disk) takes 2 to 3 s to load with its first analysis and about
300 MB of a process's memory, so a search pool loads it when it boots (`load`, from `actors.worker`), and every other
caller on first use. A title's analysis takes 0.1 to 0.7 ms, and several rules read the same title (its segments,
a condition's clause) in every attempt, so each text is analysed once and its morphemes cached (`morphemes`).
"""

from __future__ import annotations

import threading
import warnings
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

_lock = threading.Lock()
_kiwi: Any = None


def load() -> Any:
    """The process's analyzer, loaded and warmed on first call (thread-safe; later calls return it at once)."""
    global _kiwi
    if _kiwi is None:
        with _lock:
            if _kiwi is None:
                from kiwipiepy import Kiwi  # here, not at import: importing the matcher must stay cheap

                # No typo or multi-word dictionaries: titles are read as written, and they cost ~190 MB a process and
                # half the load time for the same verdicts on the corpus. No worker threads: one text at a time.
                with warnings.catch_warnings():  # it warns that 0 has meant "one thread" since 0.21: what is meant
                    warnings.simplefilter("ignore", DeprecationWarning)
                    kiwi = Kiwi(num_workers=0, load_typo_dict=False, load_multi_dict=False)
                kiwi.tokenize("갤럭시버즈3케이스")  # the language model itself loads on the first analysis
                _kiwi = kiwi
    return _kiwi


def loaded() -> bool:
    """The analyzer is ready: `load` returns at once."""
    return _kiwi is not None


@dataclass(frozen=True, slots=True)
class Morpheme:
    tag: str  # Kiwi's part-of-speech tag (Sejong tag set): NNG common noun, SN number, XSN suffix …
    start: int  # where its surface begins in the analysed text
    end: int
    surface: str  # as written there


@lru_cache(maxsize=1 << 14)
def morphemes(text: str) -> tuple[Morpheme, ...]:
    """A text's morphemes in order, with their surface spans in `text` (cached: the rules of one search read each
    title more than once)."""
    kiwi = load()
    with _lock:  # one analysis at a time: cheap, and Kiwi's thread-safety is not documented for every version
        tokens = kiwi.tokenize(text)
    return tuple(
        Morpheme(token.tag, token.start, token.start + token.len, text[token.start : token.start + token.len])
        for token in tokens
    )
