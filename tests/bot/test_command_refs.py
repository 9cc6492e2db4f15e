"""Texts that tell people what to type name the command as a segment, so each
platform writes it the way it is typed there (``/newgame``, ``/domino new``)."""

from __future__ import annotations

from bot.model.contract import CommandRef, Notice, Outbound, PrivateStart, Screen, TextLine
from bot.storage.store import Store
from bot.table.lookups import languages_screen, rules_screen
from bot.views.i18n import translator
from tests.bot.driver import make_table, responses, user

ANNA, BORIS = user(1, "Anna"), user(2, "Boris")


def commands_in(lines: tuple[TextLine, ...]) -> list[CommandRef]:
    return [s for line in lines for s in line if isinstance(s, CommandRef)]


def info_commands(out: list[Outbound]) -> list[CommandRef]:
    return [c for reply in responses(out) for c in commands_in(reply.screen.lines)]


async def test_joining_where_no_table_is_open_names_the_new_command(fake_store: Store) -> None:
    table = make_table(fake_store)
    out = await table.command(ANNA, "join")
    assert info_commands(out) == [CommandRef("new", "tyaga")]


async def test_a_second_table_points_to_join_and_stop(fake_store: Store) -> None:
    table = make_table(fake_store)
    await table.command(ANNA, "new", "tyaga")
    out = await table.command(BORIS, "new", "kozel")
    assert info_commands(out) == [CommandRef("join"), CommandRef("stop")]


async def test_an_unknown_command_points_to_help(fake_store: Store) -> None:
    table = make_table(fake_store)
    assert info_commands(await table.command(ANNA, "dance")) == [CommandRef("help")]


async def test_cancelling_a_running_game_points_to_stop(fake_store: Store) -> None:
    table = make_table(fake_store)
    await table.command(ANNA, "new", "tyaga")
    await table.command(BORIS, "join")
    await table.command(ANNA, "start")
    assert info_commands(await table.command(ANNA, "cancel")) == [CommandRef("stop")]


async def test_a_player_who_left_a_running_game_is_told_to_send_join(fake_store: Store) -> None:
    table = make_table(fake_store)
    await table.command(ANNA, "new", "tyaga")
    await table.command(BORIS, "join")
    await table.command(ANNA, "start")
    out = await table.command(BORIS, "leave")
    assert info_commands(out) == [CommandRef("join")]
    hand = table.hand(BORIS)
    assert hand is not None and commands_in(hand.lines) == [CommandRef("join")]


async def test_the_welcome_in_the_private_chat_names_new_and_help(fake_store: Store) -> None:
    table = make_table(fake_store)
    [welcome] = await table.send(PrivateStart(ANNA, "hello"))
    assert isinstance(welcome, Notice)
    assert commands_in(welcome.screen.lines) == [CommandRef("new"), CommandRef("help")]


def test_rules_and_languages_name_their_commands() -> None:
    _ = translator("en")
    assert commands_in(rules_screen(_, (), None).lines) == [CommandRef("rules", "tyaga")]
    assert commands_in(languages_screen(_, "en").lines) == [
        CommandRef("lang", "CODE"),
        CommandRef("lang", "chat CODE"),
    ]


def test_plain_text_writes_a_command_as_its_words() -> None:
    screen = Screen((("Send ", CommandRef("new", "tyaga"), " or ", CommandRef("help"), "."),))
    assert screen.plain_text() == "Send new tyaga or help."
