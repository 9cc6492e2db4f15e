"""What the core says is true and reads right in English: who went out and who
takes the deal, the goat, the teams, the 13 rule, and option errors that name
what would go."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from bot.app.launch import seats_refusal
from bot.model.contract import ChatRef, UserRef
from bot.model.gamedoc import RUNNING, GameDoc, Seat, TableSettings
from bot.table.settings import check_options
from bot.views.i18n import translator
from bot.views.texts import error_text
from engine import (
    BadOption,
    DealEnd,
    State,
    apply,
    get_variant,
    legal_moves,
    new_match,
    next_deal,
    public_view,
    went_out,
)
from tests.bot.test_render import table_shown

_ = translator("en")
YOU = UserRef("con", "1", "You")


def unwritten(state: State[Any]) -> tuple[int, ...]:
    """Kozel: the points each seat's sheet did not take this deal, by the engine's rule."""
    return get_variant(state.variant).unwritten(public_view(state))


def doc_for(state: State[Any]) -> GameDoc:
    """You at the first seat, computers at the others."""
    seats = (Seat(user=YOU),) + tuple(Seat(computer="random") for _ in range(state.players - 1))
    return GameDoc(
        id="abcdefgh",
        chat=ChatRef("con", "local"),
        status=RUNNING,
        variant=state.variant,
        options=dict(state.options),
        seed=0,
        seats=seats,
        host=YOU.key,
        settings=TableSettings(0, False, False, "en"),
        created=0.0,
        deals=(state.dealt,) * state.deal_number,
        deal_starts=(0,) * state.deal_number,
    )


def deal_ends(variant: str, players: int, options: dict[str, Any]) -> Iterator[State[Any]]:
    """Every finished deal of seeded random matches, in a fixed order."""
    for seed in range(200):
        rng = random.Random(seed)
        state = new_match(variant, players, options=options, seed=seed)
        while True:
            moves = legal_moves(state)
            if moves:
                state, _events = apply(state, rng.choice(moves))
                continue
            yield state
            if state.match_over:
                break
            state = next_deal(state)


def first(
    variant: str, players: int, options: dict[str, Any], wanted: Callable[[State[Any]], bool]
) -> State[Any]:
    for state in deal_ends(variant, players, options):
        if wanted(state):
            return state
    raise AssertionError("no such deal in 200 seeded matches")


def summary(state: State[Any]) -> str:
    """The table between deals, as the chat sees it."""
    return table_shown(_, doc_for(state), state).plain_text()


def test_baghdad_names_who_went_out_and_who_takes_the_deal_apart() -> None:
    def out_but_beaten(state: State[Any]) -> bool:
        result = state.result
        return (
            result is not None
            and result.end is DealEnd.DOMINO
            and result.winner is not None
            and state.hands[result.winner] != ()
        )

    state = first("baghdad", 2, {}, out_but_beaten)
    assert state.result is not None and state.result.winner is not None
    out = went_out(state)
    assert out is not None and state.hands[out] == ()
    text = summary(state)
    names = {0: "\u2068You\u2069", 1: "Computer 1"}
    assert f"{names[out]} went out." in text
    assert f"The deal goes to {names[state.result.winner]}." in text
    assert "wins the deal" not in text


def test_the_kozel_goat_is_named_when_the_match_ends() -> None:
    state = first("kozel", 3, {"target": 11}, lambda s: s.match_over)
    goats = [s for s, total in enumerate(state.match_scores) if total >= 11]
    names = ["\u2068You\u2069", "Computer 1", "Computer 2"]
    said = ", ".join(names[s] for s in goats)
    word = "goat" if len(goats) == 1 else "goats"
    assert f"The {word}: {said}." in summary(state)


def test_kozel_teams_are_shown_and_a_deal_is_written_for_the_team() -> None:
    state = first("kozel", 4, {"teams": "on"}, lambda s: s.result is not None)
    assert state.result is not None
    table = table_shown(_, doc_for(state), state).plain_text()
    assert "Teams: \u2068You\u2069 and Computer 2 against Computer 1 and Computer 3." in table
    text = summary(state)
    for seat, team in ((0, "\u2068You\u2069 and Computer 2"), (1, "Computer 1 and Computer 3")):
        if unwritten(state)[seat]:
            assert f"{team}: " in text and "not written" in text
        else:
            assert f"{team}: {state.result.scores[seat]} point" in text
    # A partner's tiles left are shown under his own name, with no points of the team's.
    you = next(row for row in text.splitlines() if row.startswith("• \u2068You\u2069: "))
    assert "tile" in you and "point" not in you


def test_points_the_13_rule_does_not_write_say_why() -> None:
    state = first("kozel", 3, {}, lambda s: any(unwritten(s)))
    seat = next(s for s, points in enumerate(unwritten(state)) if points)
    points = unwritten(state)[seat]
    assert 0 < points < 13 and state.result is not None and state.result.scores[seat] == 0
    name = ["\u2068You\u2069", "Computer 1", "Computer 2"][seat]
    line = next(row for row in summary(state).splitlines() if row.startswith(f"• {name}: "))
    assert f"{points} point" in line and "not written" in line and "13" in line
    assert "0 points this deal" not in line


@pytest.mark.parametrize(
    ("variant", "options", "expected"),
    [
        (
            "kozel",
            {"players": 1},
            "The players are whoever sits down: Kozel (the goat) is played by 2 to 4 players.",
        ),
        (
            "baghdad",
            {"match": "deals:3"},
            "match=deals:3 does not work: write deals:N with an even N (deals:6) "
            "or target:N with the points to reach (target:100).",
        ),
    ],
)
def test_an_option_error_says_what_would_go(
    variant: str, options: dict[str, Any], expected: str
) -> None:
    assert check_options(_, variant, 1, options) == expected


def test_options_that_clash_at_the_start_name_the_one_that_would_go_in_words() -> None:
    with pytest.raises(BadOption) as refused:
        new_match("tyaga", 2, options={"no_double": "blank"})
    said = error_text(_, refused.value)
    assert said == (
        "When nobody holds a double, the highest [x|0] can lead only if the highest double "
        "is to lead the deal."
    )


@pytest.mark.parametrize(
    ("variant", "players", "humans", "expected"),
    [
        ("kozel", 0, 1, "Kozel (the goat) is played by 2 to 4 players, not 0."),
        ("kozel", 6, 1, "Kozel (the goat) is played by 2 to 4 players, not 6."),
        ("three_guns", 2, 1, "Three Guns is played by 3 players, not 2."),
        ("tyaga", 2, 3, "--humans must be from 1 to 2, the number of players."),
        ("tyaga", 2, 2, None),
    ],
)
def test_the_terminal_refuses_a_table_the_game_cannot_seat_by_its_size(
    variant: str, players: int, humans: int, expected: str | None
) -> None:
    assert seats_refusal(_, variant, players, humans) == expected
