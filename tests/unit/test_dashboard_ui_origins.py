"""LPS_UI_ORIGINS, the dashboard's public origins that a form may be posted from: only origins are
taken."""

from __future__ import annotations

import pytest

from infra.settings import Settings, SettingsError


@pytest.mark.parametrize(
    "value", ["lps.example.com", "https://lps.example.com/ui", "ftp://lps.example.com", "https://u:p@lps.example.com"]
)
def test_lps_ui_origins_takes_only_origins(value: str):
    with pytest.raises(SettingsError, match="LPS_UI_ORIGINS"):
        Settings.from_env({"LPS_UI_ORIGINS": value})
