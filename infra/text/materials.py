"""What a product is made of, as titles write it: "스테인리스" as 스텐, 스테인레스 or Stainless.

A closed set, one concept per material, like the pets of `infra.text.pets` and the wireless of `infra.text.wireless`:
a keyword's 스텐 names the stainless product wherever a title says so, in any of its spellings (Korean writes the
loanword several ways and clips it), and another material is still another product. Only materials whose names are
written more than one way; "304" and "SUS" are grades, which a keyword names as words of their own.
"""

from __future__ import annotations

from infra.text.spellings import spellings_lookup

#: Each material's spellings, lower case, the standard Korean spelling first.
MATERIALS: tuple[tuple[str, ...], ...] = (
    ("스테인리스", "스텐", "스테인레스", "스텐레스", "스텐리스", "stainless"),
    ("알루미늄", "알미늄", "aluminium", "aluminum"),
)
#: Every way a material is written, when the word is one of them ("스텐": 스테인리스, stainless …); () otherwise.
material_spellings = spellings_lookup(MATERIALS)
