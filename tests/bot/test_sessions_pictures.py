"""The table as a picture: the table command and the Picture button send it to
the asker alone, once per version of the game, each deal's end is drawn once, and a
chat that asks for it gets it after every move, edited in place."""

from __future__ import annotations

import io

from PIL import Image

from bot.model.contract import Answer, Notice, Outbound, Response, Show, SlotKind
from bot.storage.store import Store
from tests.bot.driver import (
    Table,
    answer,
    button,
    make_table,
    responses,
    scripted,
    shows,
    user,
)
from tests.bot.test_sessions_play import SHORT, press_tile

ANNA, BORIS = user(1, "Anna"), user(2, "Boris")
FIRST_MOVES = [(ANNA, "[6|6]"), (BORIS, "◀ [6|4]"), (ANNA, "[6|5] ▶"), (BORIS, "◀ [4|4]")]


def _png(picture: bytes | None) -> Image.Image:
    assert picture is not None
    image = Image.open(io.BytesIO(picture))
    assert image.format == "PNG"
    return image


def _notices(out: list[Outbound]) -> list[Notice]:
    return [item for item in out if isinstance(item, Notice)]


def _pictures(out: list[Outbound]) -> list[Response]:
    """The pictures sent on demand: each to one person alone."""
    return [item for item in out if isinstance(item, Response) and item.screen.picture]


async def _started(table: Table) -> None:
    await scripted(table, "tyaga", [ANNA, BORIS], SHORT, options={"hand_size": 3})
    await table.open_hands(ANNA, BORIS)


async def test_the_table_command_sends_the_table_as_a_picture(fake_store: Store) -> None:
    table = make_table(fake_store)
    await _started(table)
    first = _pictures(await table.command(BORIS, "table"))
    assert len(first) == 1 and first[0].chat == table.chat and first[0].to == BORIS
    assert "Tyaga" in first[0].screen.plain_text() and "Deal 1" in first[0].screen.plain_text()
    assert _png(first[0].screen.picture).width == 800
    await press_tile(table, ANNA, "[6|6]")
    second = _pictures(await table.command(BORIS, "table"))
    assert second[0].screen.picture != first[0].screen.picture


async def test_where_tables_are_asked_for_live_the_table_command_posts_the_table_anew(
    fake_store: Store,
) -> None:
    table = make_table(fake_store)
    table.sessions.tables_on_demand(table.chat.platform)
    await _started(table)
    (posted,) = await table.command(BORIS, "table")
    assert isinstance(posted, Show) and posted.renew
    assert posted.slot.kind is SlotKind.TABLE and posted.slot.chat == table.chat
    assert posted.screen == table.table()
    assert button(posted.screen, "Picture").payload, "the table came without its buttons"
    assert not _pictures(await table.command(ANNA, "table"))


async def test_where_tables_are_asked_for_live_help_says_what_the_table_command_does(
    fake_store: Store,
) -> None:
    table = make_table(fake_store)
    assert (
        "the table as a picture"
        in responses(await table.command(ANNA, "help"))[0].screen.plain_text()
    )
    table.sessions.tables_on_demand(table.chat.platform)
    shown = responses(await table.command(ANNA, "help"))[0].screen.plain_text()
    assert "the live table with its buttons" in shown and "as a picture" not in shown


async def test_the_table_command_without_a_game_says_so(fake_store: Store) -> None:
    table = make_table(fake_store)
    out = await table.command(ANNA, "table")
    assert not _notices(out)
    assert "No game is running here." in responses(out)[0].screen.plain_text()


async def test_the_picture_button_answers_and_sends_the_picture_changing_nothing(
    fake_store: Store,
) -> None:
    table = make_table(fake_store)
    await _started(table)
    await press_tile(table, ANNA, "[6|6]")
    before = await fake_store.load(table.chat)
    out = await table.press(BORIS, button(table.table(), "Picture").payload)
    said = answer(out)
    assert said.text == "The picture is on its way to you alone." and not said.alert
    # Should it not reach him, a platform that sends it to his private chat says instead:
    assert said.unreachable == Answer(
        "I cannot write to you privately yet: open our private chat, then press again.", alert=True
    )
    assert not _notices(out)
    pictures = _pictures(out)
    assert len(pictures) == 1 and pictures[0].chat == table.chat and pictures[0].to == BORIS
    _png(pictures[0].screen.picture)
    after = await fake_store.load(table.chat)
    assert before is not None and after is not None and after.version == before.version


async def test_asking_again_for_the_same_version_sends_no_second_picture(
    fake_store: Store,
) -> None:
    table = make_table(fake_store)
    await _started(table)
    await press_tile(table, ANNA, "[6|6]")
    picture = button(table.table(), "Picture").payload
    assert len(_pictures(await table.press(BORIS, picture))) == 1
    again = await table.press(BORIS, picture)
    assert answer(again) == Answer("You were sent this picture already.")
    assert not _pictures(again) and not _notices(again)
    assert not _pictures(await table.command(BORIS, "table"))
    assert len(_pictures(await table.press(ANNA, picture))) == 1  # each asker has his own
    await press_tile(table, BORIS, "◀ [6|4]")
    assert len(_pictures(await table.press(BORIS, picture))) == 1  # a new version


async def test_a_picture_button_of_a_stopped_game_changes_nothing(fake_store: Store) -> None:
    table = make_table(fake_store)
    await _started(table)
    await press_tile(table, ANNA, "[6|6]")
    old = button(table.table(), "Picture").payload
    assert old is not None
    await table.command(ANNA, "stop", admin=True)
    out = await table.press(BORIS, old)
    assert answer(out).text == "That button is from a finished game."
    assert not _notices(out)


async def test_a_deals_end_is_told_by_the_table_in_words_and_drawn_once(
    fake_store: Store,
) -> None:
    table = make_table(fake_store)
    await _started(table)
    for who, label in FIRST_MOVES:
        out = await press_tile(table, who, label)
        assert all(s.screen.picture is None for s in shows(out, SlotKind.TABLE))
        assert not _notices(out)  # no picture while the deal is played
    out = await press_tile(table, ANNA, "[5|5]")
    [shown] = shows(out, SlotKind.TABLE)
    assert shown.screen.picture is None
    assert "\u2068Anna\u2069 went out." in shown.screen.plain_text()
    [drawn] = _notices(out)  # the final line and the hands left, as a message of its own
    assert drawn.chat == table.chat and "Deal 1" in drawn.screen.plain_text()
    assert _png(drawn.screen.picture).width == 800
    assert out.index(drawn) > out.index(shown)  # after the table that tells the result
    [asked] = _pictures(await table.command(BORIS, "table"))
    assert asked.screen.picture == drawn.screen.picture  # the deal's end as it stands


async def test_pictures_follow_moves_only_when_the_chat_turns_them_on(fake_store: Store) -> None:
    table = make_table(fake_store)
    await _started(table)
    out = await press_tile(table, ANNA, "[6|6]")
    assert not shows(out, SlotKind.PICTURE)
    out = await table.command(ANNA, "settings", "pictures=on", admin=True)
    assert "a picture after every move" in responses(out)[0].screen.plain_text()
    assert not shows(out, SlotKind.TABLE)  # the table itself is as it was
    seen = shows(out, SlotKind.PICTURE)  # at once, as the table stands
    assert len(seen) == 1
    for who, label in FIRST_MOVES[1:]:
        out = await press_tile(table, who, label)
        seen += shows(out, SlotKind.PICTURE)
    assert len(seen) == 4
    assert len({s.slot.key for s in seen}) == 1  # one message, edited in place
    assert [s.version for s in seen] == sorted({s.version for s in seen})
    assert len({s.screen.picture for s in seen}) == 4
    await table.command(ANNA, "settings", "pictures=off", admin=True)
    out = await press_tile(table, ANNA, "[5|5]")
    assert not shows(out, SlotKind.PICTURE)


async def test_a_bad_pictures_value_is_refused_and_changes_nothing(fake_store: Store) -> None:
    table = make_table(fake_store)
    await _started(table)
    out = await table.command(ANNA, "settings", "pictures=maybe", admin=True)
    assert "pictures must be on or off" in responses(out)[0].screen.plain_text()
    doc = await table.doc()
    assert doc is not None and not doc.settings.pictures


async def test_a_player_turns_his_hand_picture_on_and_off(fake_store: Store) -> None:
    table = make_table(fake_store)
    await _started(table)
    shown = table.hand(ANNA)
    assert shown is not None and shown.picture is None  # off by default
    out = await table.command(ANNA, "hand_picture", "on")
    assert "a picture of your tiles" in responses(out)[0].screen.plain_text()
    (mine,) = shows(out, SlotKind.HAND)  # sent again at once, with its picture
    assert mine.slot.user == ANNA
    first = _png(mine.screen.picture)
    out = await press_tile(table, ANNA, "[6|6]")
    hands = {s.slot.user.name: s.screen for s in shows(out, SlotKind.HAND) if s.slot.user}
    assert hands["Anna"].picture is not None and hands["Anna"].picture != mine.screen.picture
    assert hands["Boris"].picture is None  # his own setting is still off
    assert _png(hands["Anna"].picture).width == first.width
    out = await table.command(ANNA, "hand_picture", "off")
    (mine,) = shows(out, SlotKind.HAND)
    assert mine.screen.picture is None


async def test_a_hand_picture_setting_is_refused_without_a_seat_or_a_clear_word(
    fake_store: Store,
) -> None:
    table = make_table(fake_store)
    await _started(table)
    out = await table.command(ANNA, "hand_picture", "maybe")
    assert "hand_picture must be on or off" in responses(out)[0].screen.plain_text()
    stranger = user(3, "Vera")
    out = await table.command(stranger, "hand_picture", "on")
    assert "You are not at this table." in responses(out)[0].screen.plain_text()
    doc = await table.doc()
    assert doc is not None and not any(seat.pictures for seat in doc.seats)
