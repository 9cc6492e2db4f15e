"""With one person at the keyboard, what the table says about him is said to him, in
every language: worded from the typed events and the table's model (never from the
core's text), "You take the deal.", "The match is over. You won.", and his draws name
the tiles he drew."""

from __future__ import annotations

import pytest

from bot.model.events import (
    Blocked,
    DealScored,
    Drew,
    MatchEnded,
    Passed,
    Played,
    RecoveredCaravan,
    StoleCaravan,
    TableEvent,
    WentOut,
)
from bot.model.parts import BaghdadParts, CaravanPart, LineTile, TileRef, TyagaParts
from bot.model.table import SeatView, TableView
from bot.views.event_words import EventWords, seat_names
from bot.views.i18n import translator

LANGUAGES = ["en", "ru", "uk", "pl", "ca"]
YOU, COMPUTER = 0, 1


def tile(text: str) -> TileRef:
    hi, lo = (int(half) for half in text.split("-"))
    return TileRef(hi=hi, lo=lo)


def camel(position: int, left: int, right: int) -> LineTile:
    return LineTile(
        position=position,
        tile=TileRef(hi=max(left, right), lo=min(left, right)),
        left=left,
        right=right,
    )


def table(players: int = 2, parts: BaghdadParts | TyagaParts | None = None) -> TableView:
    """A table of the one person ("You") and computers."""
    seats = tuple(
        SeatView(
            seat=n,
            name="You" if n == YOU else None,
            computer=None if n == YOU else n,
            away=False,
            tiles=3,
            deal_points=None,
            total=0,
            goat=False,
            tokens=None,
        )
        for n in range(players)
    )
    return TableView(
        version=1,
        table="t1",
        game="baghdad" if isinstance(parts, BaghdadParts) else "tyaga",
        status="running",
        lower_wins=False,
        unit="points",
        deal=1,
        line=(),
        ends=None,
        boneyard=0,
        seats=seats,
        teams=(),
        turn=None,
        next_deal_at=None,
        parts=parts or TyagaParts(),
        deal_result=None,
        match_result=None,
    )


def words(lang: str, you: int | None, model: TableView | None = None) -> EventWords:
    _ = translator(lang)
    return EventWords(_, seat_names(_, model or table(3)), you)


def test_the_same_events_are_told_about_the_player_or_to_him() -> None:
    caravans = BaghdadParts(
        caravans=(
            CaravanPart(
                status="stolen",
                owner=YOU,
                camels=(camel(0, 6, 2), camel(1, 2, 0)),
                thief=tile("6-0"),
            ),
        ),
        phase="main",
        penalties=(0, 0, 0),
    )
    model = table(3, caravans)
    events: list[TableEvent] = [
        Played(version=1, seat=COMPUTER, tile=tile("6-6"), end=None),
        Drew(version=3, seat=YOU, count=2),
        Passed(version=4, seat=YOU, timed_out=True),
        StoleCaravan(version=5, seat=YOU, thief=tile("6-0"), camels=2),
        WentOut(version=6, seat=COMPUTER),
        DealScored(version=6, deal=1, winner=YOU, points=(9, 0, 0)),
        MatchEnded(version=6, winners=(YOU, 2), goats=(YOU,)),
    ]
    drawn = [tile("5-2"), tile("3-1")]
    about = words("en", None, model).sentences(events, drawn, model)
    to = words("en", YOU, model).sentences(events, drawn, model)
    assert about == [
        "Computer 1 led with [6|6]",
        "\u2068You\u2069 drew 2 tiles",
        "\u2068You\u2069 passed (time ran out)",
        "\u2068You\u2069 stole the caravan with [6|0]",
        "Computer 1 went out.",
        "The deal goes to \u2068You\u2069.",
        "The match is over. Won by \u2068You\u2069, Computer 2.",
        "The goat: \u2068You\u2069.",
    ]
    assert to == [
        "Computer 1 led with [6|6]",
        "You drew [5|2] [3|1]",
        "\u2068You\u2069 passed (time ran out)",
        "Stolen by you with [6|0]: [6|2][2|0]",
        "Computer 1 went out.",
        "You take the deal.",
        "The match is over. You won, with Computer 2.",
        "You are the goat.",
    ]
    # Another's draws never name tiles, nor do the player's when they do not tally.
    assert words("en", COMPUTER, model).sentences(events[1:2], drawn) == [
        "\u2068You\u2069 drew 2 tiles"
    ]
    assert words("en", YOU, model).sentences(events[1:2], drawn[:1]) == [
        "\u2068You\u2069 drew 2 tiles"
    ]


def test_two_doubles_played_at_once_are_one_move_and_a_block_says_so() -> None:
    events: list[TableEvent] = [
        Played(version=2, seat=YOU, tile=tile("5-5"), end="L"),
        Played(version=2, seat=YOU, tile=tile("3-3"), end="R"),
        Played(version=3, seat=COMPUTER, tile=tile("5-1"), end="L", across=True),
        Blocked(version=3),
        DealScored(version=3, deal=1, winner=None, points=(0, 0, 0)),
    ]
    assert words("en", YOU).sentences(events) == [
        "\u2068You\u2069 played [5|5] on the left and [3|3] on the right",
        "Computer 1 laid [5|1] across on the left",
        "Blocked: nobody can move.",
        "Nobody takes the deal.",
    ]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_match_the_player_won_is_told_to_him_as_his_win(lang: str) -> None:
    _ = translator(lang)
    ended = [MatchEnded(version=9, winners=(YOU,), goats=())]
    about, to = words(lang, None).sentences(ended), words(lang, YOU).sentences(ended)
    assert about == [_("The match is over. Won by %(names)s.", names="\u2068You\u2069")]
    assert to == [_("The match is over. You won.")] != about
    if lang == "en":
        assert to == ["The match is over. You won."]
    partners = [MatchEnded(version=9, winners=(YOU, 2), goats=())]
    won = words(lang, YOU).sentences(partners)
    partner = _("Computer %(n)d", n=2)
    assert won == [_("The match is over. You won, with %(names)s.", names=partner)]
    others = [MatchEnded(version=9, winners=(COMPUTER,), goats=())]
    assert words(lang, YOU).sentences(others) == words(lang, None).sentences(others)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_deal_the_player_took_is_told_to_him_as_his(lang: str) -> None:
    _ = translator(lang)
    scored = [DealScored(version=5, deal=1, winner=YOU, points=(4, 0, 0))]
    about, to = words(lang, None).sentences(scored), words(lang, YOU).sentences(scored)
    assert about == [_("The deal goes to %(name)s.", name="\u2068You\u2069")]
    assert to == [_("You take the deal.")] != about
    theirs = [DealScored(version=5, deal=1, winner=COMPUTER, points=(0, 4, 0))]
    assert words(lang, YOU).sentences(theirs) == [
        _("The deal goes to %(name)s.", name=_("Computer %(n)d", n=1))
    ]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_player_as_the_goat_is_told_so(lang: str) -> None:
    _ = translator(lang)
    ended = [MatchEnded(version=9, winners=(COMPUTER,), goats=(YOU,))]
    goat = words(lang, YOU).sentences(ended)[-1]
    assert goat == _("You are the goat.")
    assert words(lang, None).sentences(ended)[-1] == _.ngettext(
        "The goat: %(names)s.", "The goats: %(names)s.", 1, names="\u2068You\u2069"
    )


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_caravan_the_player_stole_or_recovered_is_told_to_him(lang: str) -> None:
    _ = translator(lang)
    cuffs = (tile("6-6"), tile("0-0"))
    parts = BaghdadParts(
        caravans=(
            CaravanPart(status="stolen", owner=YOU, camels=(camel(0, 6, 2),), thief=tile("6-0")),
            CaravanPart(status="recovered", owner=YOU, camels=(camel(0, 4, 4),), handcuffs=cuffs),
        ),
        phase="main",
        penalties=(0, 0),
    )
    model = table(2, parts)
    stolen = StoleCaravan(version=4, seat=YOU, thief=tile("6-0"), camels=1)
    recovered = RecoveredCaravan(version=6, seat=YOU, handcuffs=cuffs, camels=1)
    to = words(lang, YOU, model).sentences([stolen, recovered], table=model)
    assert to == [
        _("Stolen by you with %(thief)s: %(tiles)s", thief="[6|0]", tiles="[6|2]"),
        _("Recovered by you: %(tiles)s", tiles="[4|4]"),
    ]
    about = words(lang, None, model).sentences([stolen, recovered], table=model)
    assert about == [
        _("%(name)s stole the caravan with %(tile)s", name="\u2068You\u2069", tile="[6|0]"),
        _(
            "%(name)s recovered a caravan with %(a)s and %(b)s",
            name="\u2068You\u2069",
            a="[6|6]",
            b="[0|0]",
        ),
    ]
    assert to != about


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_tables_closed_caravans_are_said_to_their_owner(lang: str) -> None:
    _ = translator(lang)
    stolen = CaravanPart(status="stolen", owner=YOU, camels=(camel(0, 6, 2),), thief=tile("6-0"))
    cuffs = (tile("6-6"), tile("0-0"))
    recovered = CaravanPart(
        status="recovered", owner=YOU, camels=(camel(0, 4, 4),), handcuffs=cuffs
    )
    you = "\u2068You\u2069"
    assert [words(lang, None).caravan(c) for c in (stolen, recovered)] == [
        _("Stolen by %(name)s with %(thief)s: %(tiles)s", name=you, thief="[6|0]", tiles="[6|2]"),
        _("Recovered by %(name)s: %(tiles)s", name=you, tiles="[4|4]"),
    ]
    assert [words(lang, YOU).caravan(c) for c in (stolen, recovered)] == [
        _("Stolen by you with %(thief)s: %(tiles)s", thief="[6|0]", tiles="[6|2]"),
        _("Recovered by you: %(tiles)s", tiles="[4|4]"),
    ]
    if lang == "en":
        assert words(lang, YOU).caravan(stolen) == "Stolen by you with [6|0]: [6|2]"
