"""Bed sizes as titles write them: the Korean word, its letters, the English word ("퀸", "Q", "Queen").

A closed set, one concept per size, like the sizes of `infra.text.sizes`: a keyword's 퀸 names the queen-size
mattress, cover or duvet wherever a title says so. Another size is still another product ("슈퍼싱글" for 퀸).
"""

from __future__ import annotations

#: Each size's spellings, lower case, the keyword's usual Korean word first, then its letters, then English.
BED_SIZES: tuple[tuple[str, ...], ...] = (
    ("싱글", "s", "single"),
    ("슈퍼싱글", "ss", "super single"),
    ("더블", "d", "double"),
    ("퀸", "q", "queen"),
    ("킹", "k", "king"),
    ("라지킹", "lk", "large king"),
)
_SPELLINGS_OF = {size[0]: size for size in BED_SIZES}


def bed_size_spellings(word: str) -> tuple[str, ...]:
    """Every way a bed size is written, when the word is its Korean word ("퀸": q, queen); () otherwise."""
    return _SPELLINGS_OF.get(word, ())
