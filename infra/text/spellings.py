"""A closed set of concepts, each written several ways: the lookup that `infra.text.pets`, `sexes`, `wireless`,
`materials` and `connectors` share."""

from __future__ import annotations

from collections.abc import Callable, Iterable

#: A lookup from a word to every spelling of the concept it is one spelling of; () when it is none.
SpellingsOf = Callable[[str], tuple[str, ...]]


def spellings_lookup(concepts: Iterable[tuple[str, ...]]) -> SpellingsOf:
    """The lookup of a closed set of concepts, each given as its spellings ("맨즈" finds 남성, 맨즈, men …)."""
    of = {spelling: concept for concept in concepts for spelling in concept}
    return lambda word: of.get(word, ())
