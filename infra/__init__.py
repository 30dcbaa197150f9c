"""Connections, settings and process plumbing shared by the gateway and the workers."""
