"""A connector, as titles write it: USB-C as "USB-C", "Type-C", "C타입" or "타입C".

A closed set, like the materials of `infra.text.materials` and the wireless of `infra.text.wireless`: a keyword's
USB-C names the connector wherever a title says so, in any of its spellings (Korean listings call it C타입 as often),
and another connector (Lightning, 8핀, USB-A) is still another product.
"""

from __future__ import annotations

from infra.text.spellings import spellings_lookup

#: Each connector's spellings, lower case and without dashes (as a folded title is searched), the usual one first.
CONNECTORS: tuple[tuple[str, ...], ...] = (("usbc", "typec", "c타입", "타입c"),)
#: Every way a connector is written, when the word is one of them ("c타입": usbc, typec …); () otherwise.
connector_spellings = spellings_lookup(CONNECTORS)
