"""A web pass lets in whom it was signed for, until it expires, and nobody with a pass
that was forged, altered, signed with another secret or cut short."""

from __future__ import annotations

import re

import pytest

from bot.model.contract import ChatRef
from bot.model.web_pass import BadPass, WebPass, check, from_start_param, sign, start_param

SECRET = "s3cret"
CHAT = ChatRef("tg", "-100123", "7")


def test_a_pass_gives_back_the_table_the_person_and_the_expiry() -> None:
    token = sign(SECRET, CHAT, "tg:42", 2_000)
    assert check(SECRET, token, 1_000) == WebPass(CHAT, "tg:42", 2_000)


def test_a_spectators_pass_names_nobody() -> None:
    assert check(SECRET, sign(SECRET, CHAT, None, 2_000), 1_000).user_key is None


def test_an_expired_pass_is_refused() -> None:
    with pytest.raises(BadPass, match="expired"):
        check(SECRET, sign(SECRET, CHAT, "tg:42", 2_000), 2_001)


def test_a_pass_signed_with_another_secret_is_refused() -> None:
    with pytest.raises(BadPass):
        check(SECRET, sign("other", CHAT, "tg:42", 2_000), 1_000)


@pytest.mark.parametrize("field", [0, 1, 2])
def test_a_pass_with_a_field_changed_is_refused(field: int) -> None:
    token = sign(SECRET, CHAT, "tg:42", 2_000)
    forged = sign(SECRET, ChatRef("tg", "-999"), "tg:43", 9_999).split(".")
    parts = token.split(".")
    parts[field] = forged[field]
    with pytest.raises(BadPass):
        check(SECRET, ".".join(parts), 1_000)


@pytest.mark.parametrize("token", ["", "a.b.c", "a.b.c.d.e", "!!.-.MjAwMA.AAAA", "x" * 500, "...."])
def test_a_malformed_pass_is_refused(token: str) -> None:
    with pytest.raises(BadPass):
        check(SECRET, token, 1_000)


def test_no_secret_signs_or_checks_nothing() -> None:
    with pytest.raises(ValueError):
        sign("", CHAT, None, 2_000)
    with pytest.raises(BadPass):
        check("", sign(SECRET, CHAT, None, 2_000), 1_000)


def test_a_pass_travels_as_a_mini_apps_start_parameter() -> None:
    token = sign(SECRET, CHAT, None, 2_000)
    param = start_param(token)
    assert re.fullmatch(r"[A-Za-z0-9_-]{1,512}", param)
    assert check(SECRET, from_start_param(param), 1_000) == WebPass(CHAT, None, 2_000)


def test_a_start_parameter_that_is_no_pass_is_refused() -> None:
    with pytest.raises(BadPass):
        from_start_param("not base64!")
