"""The engine state at the start of a deal, kept beside a stored game so that a process
that has not seen the game replays at most the deal being played.

A snapshot is only a shortcut: the game's deals and moves alone rebuild the state, and
any snapshot this process cannot use is ignored (:func:`load` returns ``None``).

The state is written with :mod:`pickle` rather than a JSON form of our own: engine states
are named tuples and frozen dataclasses of each variant's own shape, and a hand-written
codec for all of them would have to follow every change of the engine. Two things make
pickle safe here. A snapshot names the engine it was made by (a digest of the engine's
source files), and one made by any other engine is ignored, so a changed state shape
never reaches the code. And reading it admits only the engine's own classes and a short
list of harmless builtins, so a snapshot written by anyone else cannot call anything.
"""

from __future__ import annotations

import base64
import binascii
import copyreg
import functools
import hashlib
import io
import pickle
import types
import zlib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

import engine
from engine import State

_BUILTINS: Final = frozenset({"frozenset", "set", "tuple", "list", "dict", "int", "str", "bool"})
_SEPARATOR: Final = ":"


def _frozen(values: dict[str, Any]) -> Mapping[str, Any]:
    return types.MappingProxyType(values)


def _pickler(buffer: io.BytesIO) -> pickle.Pickler:
    pickler = pickle.Pickler(buffer, protocol=5)
    # Resolved options are a read-only mapping, which pickle cannot write by itself.
    pickler.dispatch_table = {
        **copyreg.dispatch_table,
        types.MappingProxyType: lambda m: (_frozen, (dict(m),)),
    }
    return pickler


class _Unpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        allowed = (
            module == "engine"
            or module.startswith("engine.")
            or (module == "builtins" and name in _BUILTINS)
            or (module == __name__ and name == "_frozen")
            or (module == "copyreg" and name == "_reconstructor")
        )
        if not allowed:
            raise pickle.UnpicklingError(f"a snapshot may not name {module}.{name}")
        return super().find_class(module, name)


@functools.cache
def engine_digest() -> str:
    """A short digest of the engine's source: snapshots are read only by the engine that
    wrote them."""
    root = Path(engine.__file__).parent
    digest = hashlib.blake2b(digest_size=6)
    for path in sorted(root.rglob("*.py")):
        digest.update(str(path.relative_to(root)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def dump(state: State[Any]) -> str:
    """The state as text: the engine's digest, then the compressed pickle in base 64."""
    buffer = io.BytesIO()
    _pickler(buffer).dump(state)
    packed = base64.b64encode(zlib.compress(buffer.getvalue(), 6)).decode("ascii")
    return engine_digest() + _SEPARATOR + packed


def load(text: str | None) -> State[Any] | None:
    """The state a snapshot holds; ``None`` if there is none, another engine wrote it, or
    it cannot be read."""
    if not text:
        return None
    digest, _, packed = text.partition(_SEPARATOR)
    if digest != engine_digest():
        return None
    try:
        raw = zlib.decompress(base64.b64decode(packed, validate=True))
        state = _Unpickler(io.BytesIO(raw)).load()
    except (binascii.Error, zlib.error, pickle.UnpicklingError, EOFError, ValueError):
        return None
    except (AttributeError, ImportError, TypeError, IndexError):
        return None
    return state if isinstance(state, State) else None
