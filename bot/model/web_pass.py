"""A signed pass to a web table: which table, as whom (a seat's person, or nobody: a
spectator), until when. The chats put it in the links they give (a player's hand, the
table's "open" and "watch" buttons); the web server checks it before a page sees
anything.

Written with the standard library's ``hmac`` rather than a token library: a pass is
three short fields and a MAC, and what it must refuse (a forged or altered pass, one
signed with another secret, an expired one) is pinned by tests. Its form, all
URL-safe: ``<chat key>.<user key or "-">.<expiry, Unix seconds>.<MAC>``, each field
base64url without padding, the MAC HMAC-SHA-256 over the first three as sent,
truncated to 16 bytes (128 bits: a guess still takes 2**127 tries on average).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from dataclasses import dataclass
from typing import Final

from bot.model.contract import ChatRef

MAC_BYTES: Final = 16
MAX_PASS: Final = 400  # characters; a longer one is refused unread


class BadPass(ValueError):
    """The pass was forged, altered, signed with another secret, malformed or expired."""


@dataclass(frozen=True, slots=True)
class WebPass:
    """A checked pass: the table's chat, the person it lets in (his user key, such as
    ``tg:42``; ``None``: a spectator) and when it expires."""

    chat: ChatRef
    user_key: str | None
    expires: int


def sign(secret: str, chat: ChatRef, user_key: str | None, expires: int) -> str:
    """A pass to ``chat``'s table for ``user_key`` (``None``: to watch) until ``expires``."""
    if not secret:
        raise ValueError("a web pass needs a secret")
    body = ".".join(_b64(part) for part in (chat.key, user_key or "-", str(expires)))
    return f"{body}.{_b64(_mac(secret, body))}"


def check(secret: str, token: str, now: float) -> WebPass:
    """The pass ``token`` stands for; :class:`BadPass` unless ``secret`` signed it and it
    has not expired at ``now``."""
    if not secret or len(token) > MAX_PASS:
        raise BadPass("no such table")
    parts = token.split(".")
    if len(parts) != 4:
        raise BadPass("no such table")
    body = ".".join(parts[:3])
    try:
        given = _unb64(parts[3])
        chat_key, user_key, expires_text = (_unb64(p).decode() for p in parts[:3])
        expires = int(expires_text)
    except (ValueError, UnicodeDecodeError) as exc:
        raise BadPass("no such table") from exc
    if not hmac.compare_digest(given, _mac(secret, body)):
        raise BadPass("no such table")
    if expires < now:
        raise BadPass("this link has expired")
    return WebPass(ChatRef.from_key(chat_key), None if user_key == "-" else user_key, expires)


def start_param(token: str) -> str:
    """``token`` as a Mini App's ``startapp`` parameter, which may hold only letters,
    digits, ``_`` and ``-`` (a pass's dots are not among them)."""
    return _b64(token)


def from_start_param(param: str) -> str:
    """The pass a ``startapp`` parameter carries (check it with :func:`check`)."""
    if len(param) > 2 * MAX_PASS:
        raise BadPass("no such table")
    try:
        return _unb64(param).decode()
    except (ValueError, UnicodeDecodeError) as exc:
        raise BadPass("no such table") from exc


def _mac(secret: str, body: str) -> bytes:
    return hmac.new(secret.encode(), body.encode(), hashlib.sha256).digest()[:MAC_BYTES]


def _b64(value: str | bytes) -> str:
    raw = value.encode() if isinstance(value, str) else value
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def _unb64(value: str) -> bytes:
    if not value or any(c not in _ALPHABET for c in value):
        raise ValueError("not base64url")
    return base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))


_ALPHABET: Final = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
