"""The payloads of a person's own data (see :mod:`bot.model.codec` for the format)::

1f_y_42   forget everything kept of user 42 (``n``: no, keep it); only user 42's
          own press counts
1d        the deep link that shows a person what is kept of him
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.model.payload_fields import BadPayload

_USER = re.compile(r"-?[0-9A-Za-z]{1,40}")


@dataclass(frozen=True, slots=True)
class ForgetPress:
    """The answer to ``forget``: delete everything kept of the user ``user_id`` (who
    alone may answer), or not."""

    confirm: bool
    user_id: str


@dataclass(frozen=True, slots=True)
class MyDataLink:
    """A deep link that opens the private chat and shows what is kept of the person."""


def forget_fields(confirm: bool, user_id: str) -> tuple[str, str]:
    """The fields of the Forget (``confirm``) or Cancel button of the user's ``forget``."""
    if not _USER.fullmatch(user_id):
        raise ValueError(f"no forget button for the user id {user_id!r}")
    return ("y" if confirm else "n", user_id)


def decode_privacy(action: str, fields: list[str]) -> ForgetPress | MyDataLink:
    """The press or link ``action`` (``f`` or ``d``) and its fields name; raises
    :class:`BadPayload` for anything else."""
    if action == "f" and len(fields) == 2 and fields[0] in ("y", "n"):
        if _USER.fullmatch(fields[1]):
            return ForgetPress(fields[0] == "y", fields[1])
    elif action == "d" and not fields:
        return MyDataLink()
    raise BadPayload(f"bad {action!r} payload")
