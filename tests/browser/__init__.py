"""Tests that look at pages in the session's Chromium (the `browser` fixture), in the processes tier (`make test`
only)."""
