"""What the Bot API's refusals mean, read from their error messages: Telegram gives
them no codes of their own, only texts, so each reading is kept here in one place; and
the refusals the delivery layer acts on, in its words (:func:`in_delivery_terms`)."""

from __future__ import annotations

import contextlib
import datetime as dtm
import warnings
from collections.abc import Iterator

from telegram.error import BadRequest, Forbidden, RetryAfter, TelegramError
from telegram.warnings import PTBDeprecationWarning

from adapters.delivery.transport import NoPermission, Refused


@contextlib.contextmanager
def in_delivery_terms() -> Iterator[None]:
    """Telegram's refusals that reach the deliverer, as it names them: a 403 from a group
    (the bot was removed from it) is :class:`NoPermission`, any other refusal or a call
    that failed every attempt :class:`Refused`. A private chat's 403 is
    :class:`adapters.delivery.transport.ChatUnreachable` already (:mod:`.calls`)."""
    try:
        yield
    except Forbidden as err:
        raise NoPermission(str(err)) from err
    except TelegramError as err:
        raise Refused(str(err)) from err


def retry_seconds(err: RetryAfter) -> float:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PTBDeprecationWarning)
        value = err.retry_after
    return value.total_seconds() if isinstance(value, dtm.timedelta) else float(value)


def is_not_modified(err: BadRequest) -> bool:
    return "message is not modified" in err.message.lower()


def is_other_kind(err: BadRequest) -> bool:
    """The edit was of the wrong kind: a picture for a text message, or the reverse."""
    text = err.message.lower()
    return "there is no media in the message" in text or "there is no text in the message" in text


def is_message_gone(err: BadRequest) -> bool:
    text = err.message.lower()
    return "message to edit not found" in text or "message can't be edited" in text
