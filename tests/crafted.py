"""Stored records as an attacker with access to Redis would write them: pickles of the
kind earlier versions kept, built to create a file when they are unpickled."""

from __future__ import annotations

import base64
import struct
import zlib


def _text(value: str) -> bytes:
    data = value.encode()
    return b"X" + struct.pack("<I", len(data)) + data  # BINUNICODE


def file_making_pickle(module: str, path: str) -> bytes:
    """A protocol 4 pickle whose loading writes ``path``: a dotted name under ``module``
    (``__loader__.set_data``) reaches a method that writes files, which an allow-list
    of modules let through."""
    return (
        b"\x80\x04"  # PROTO 4
        + _text(module)
        + _text("__loader__.set_data")
        + b"\x93"  # STACK_GLOBAL
        + _text(path)
        + b"C\x05owned"  # SHORT_BINBYTES
        + b"\x86"  # TUPLE2
        + b"R."  # REDUCE, STOP
    )


def old_snapshot(digest: str, path: str) -> str:
    """A deal snapshot as earlier versions wrote one: digest, then base 64 of a zlib'd pickle."""
    packed = zlib.compress(file_making_pickle("engine", path))
    return digest + ":" + base64.b64encode(packed).decode()


def old_outbox_entry(path: str) -> str:
    """A queued message as earlier versions wrote one: ``time|base 64 pickle``."""
    return "1.0|" + base64.b64encode(file_making_pickle("bot.model.contract", path)).decode()
