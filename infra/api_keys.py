"""API keys as LPS_API_KEYS writes them (`name=key` or `name=key:role`): their alphabet, their roles, and the
role of a key name (admin when none is given, the old format)."""

from __future__ import annotations

import re
from collections.abc import Mapping

from infra.setting_text import parse_map
from schemas.codes import KeyRole


def _split_role(value: str) -> tuple[str, KeyRole]:
    """`"k1:read"` -> ("k1", READ); a key without a known role suffix is an admin key (the old format)."""
    key, _, role = value.rpartition(":")
    return (key, KeyRole(role)) if key and role in KeyRole else (value, KeyRole.ADMIN)


#: What an API key may be written with. A key is masked in every log line by its literal text; a key with a
#: backslash, a quote, a blank or non-ASCII text shows escaped in some lines (a traceback's `b'X-API-Key: …\\x00'`,
#: a repr), where the literal is not found. Random tokens (`openssl rand -hex 32`, base64) fit.
API_KEY_ALPHABET = re.compile(r"[A-Za-z0-9._~+/=:-]+")


def check_api_keys(keys: Mapping[str, str]) -> None:
    """ValueError naming the key (never its value) that is empty or written outside API_KEY_ALPHABET."""
    for name, key in keys.items():
        if not key:
            # An empty key would let in every request that sends an empty header.
            raise ValueError(f"the key of {name!r} is empty (name=key,name=key)")
        if not API_KEY_ALPHABET.fullmatch(key):
            raise ValueError(
                f"the key of {name!r} holds a character other than letters, digits and . _ ~ + / = : - (a blank, "
                "a quote, a backslash or non-ASCII text would show escaped in logs, where it cannot be masked); "
                "use a random token, e.g. `openssl rand -hex 32`"
            )


def parse_api_keys(text: str) -> dict[str, str]:
    """`"ops=k1:admin,viewer=k2:read,old=k3"` -> the keys by name, roles stripped."""
    keys = {name: _split_role(value)[0] for name, value in parse_map(text).items()}
    check_api_keys(keys)
    return keys


def parse_api_key_roles(text: str) -> dict[str, KeyRole]:
    """`"ops=k1:admin,viewer=k2:read,old=k3"` -> {"viewer": READ}: the keys that are not admin (the default)."""
    roles = {name: _split_role(value)[1] for name, value in parse_map(text).items()}
    return {name: role for name, role in roles.items() if role != KeyRole.ADMIN}


def role_of(roles: Mapping[str, KeyRole], name: str) -> KeyRole:
    """The role of the API key called `name` among `api_key_roles` (which lists only the keys that are not ADMIN)."""
    return roles.get(name, KeyRole.ADMIN)
