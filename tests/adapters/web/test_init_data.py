"""Telegram's initData is taken only as Telegram signs it for the bot: the hash is
computed here from the documented rules ("Validating data received via the Mini App"),
independently of the code under test, and every way of getting it wrong is refused."""

from __future__ import annotations

import hashlib
import hmac
import json
from urllib.parse import urlencode

import pytest

from adapters.web.init_data import BadInitData, check_init_data

TOKEN = "123456:TEST-token-for-init-data"
NOW = 1_800_000_000.0


def signed(fields: dict[str, str], token: str = TOKEN) -> str:
    """``fields`` as a Mini App's initData: the documented data-check-string (sorted
    ``key=value`` lines), keyed by HMAC-SHA-256("WebAppData", token), hex."""
    check = "\n".join(f"{key}={fields[key]}" for key in sorted(fields))
    secret = hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()
    digest = hmac.new(secret, check.encode(), hashlib.sha256).hexdigest()
    return urlencode({**fields, "hash": digest})


def fields(user_id: int = 42, auth_date: float = NOW - 60) -> dict[str, str]:
    user = {"id": user_id, "first_name": "Ann", "last_name": "Lee", "language_code": "uk"}
    return {
        "query_id": "AAE-test",
        "user": json.dumps(user, separators=(",", ":")),
        "auth_date": str(int(auth_date)),
        "start_param": "table-pass",
    }


def test_data_signed_by_the_bot_names_its_user_and_table() -> None:
    person = check_init_data(TOKEN, signed(fields()), NOW)
    assert (person.user_id, person.name, person.lang) == (42, "Ann Lee", "uk")
    assert person.start_param == "table-pass"


def test_a_wrong_hash_is_refused() -> None:
    data = signed(fields()).replace("hash=", "hash=0")
    with pytest.raises(BadInitData):
        check_init_data(TOKEN, data, NOW)


def test_data_signed_for_another_bot_is_refused() -> None:
    with pytest.raises(BadInitData):
        check_init_data(TOKEN, signed(fields(), token="654321:another-bot"), NOW)


def test_a_changed_user_id_breaks_the_hash() -> None:
    data = signed(fields(user_id=42))
    forged = data.replace("%22id%22%3A42", "%22id%22%3A43")
    assert forged != data
    with pytest.raises(BadInitData, match="not signed"):
        check_init_data(TOKEN, forged, NOW)


def test_data_older_than_a_day_is_refused() -> None:
    check_init_data(TOKEN, signed(fields(auth_date=NOW - 86_000)), NOW)
    with pytest.raises(BadInitData, match="expired"):
        check_init_data(TOKEN, signed(fields(auth_date=NOW - 86_401)), NOW)


def test_data_from_the_future_is_refused() -> None:
    with pytest.raises(BadInitData, match="future"):
        check_init_data(TOKEN, signed(fields(auth_date=NOW + 3600)), NOW)


def test_a_field_given_twice_is_refused() -> None:
    with pytest.raises(BadInitData):
        check_init_data(TOKEN, signed(fields()) + "&auth_date=1", NOW)


def test_without_a_bot_token_nothing_is_taken() -> None:
    with pytest.raises(BadInitData):
        check_init_data("", signed(fields(), token=""), NOW)
