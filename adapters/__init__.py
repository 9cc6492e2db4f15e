"""Thin translators between chat platforms and the platform-neutral core."""
