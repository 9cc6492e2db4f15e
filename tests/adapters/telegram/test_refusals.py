"""Reading the Bot API's refusals: the wait a 429 asks for, in either of the forms
python-telegram-bot gives it (whole seconds now, a timedelta once opted in)."""

from __future__ import annotations

import datetime as dtm

import pytest
from telegram.error import RetryAfter

from adapters.telegram.refusals import retry_seconds


@pytest.mark.parametrize("timedelta_opted_in", [False, True])
def test_the_wait_a_429_asks_for_is_read_in_seconds(
    timedelta_opted_in: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    if timedelta_opted_in:
        monkeypatch.setenv("PTB_TIMEDELTA", "true")
    else:
        monkeypatch.delenv("PTB_TIMEDELTA", raising=False)
    assert retry_seconds(RetryAfter(7)) == 7.0
    assert retry_seconds(RetryAfter(dtm.timedelta(seconds=90))) == 90.0
