"""Rating maths: finishing orders, teams, ties, computers, and OpenSkill's own numbers."""

from __future__ import annotations

from typing import Any

import pytest
from openskill.models import PlackettLuce

from bot.model.contract import ChatRef
from bot.model.gamedoc import FINISHED, GameDoc, Seat, TableSettings
from bot.model.ratings import COMPUTER, Entrant, Rating, decode, encode, entrants, places, rate
from engine import State, new_match
from tests.bot.driver import user

ANNA, BORIS, CHEN, DARA = (user(n, name) for n, name in enumerate(("A", "B", "C", "D"), 1))


def finished(
    variant: str, players: int, winners: tuple[int, ...], scores: tuple[int, ...], **options: Any
) -> State[Any]:
    """A match of ``variant`` ended with these winners and scores."""
    state = new_match(variant, players, options or None, seed=1)
    return state.but(
        match_over=True, deal_over=True, turn=None, winners=winners, match_scores=scores
    )


def start(names: dict[str, str]) -> dict[str, Rating]:
    return {key: Rating(name) for key, name in names.items()}


def test_places_put_winners_first_then_better_scores_with_ties_shared() -> None:
    tyaga = finished("tyaga", 4, (2,), (40, 70, 101, 40))
    assert places("tyaga", tyaga) == [3, 2, 1, 3]
    kozel = finished("kozel", 3, (0, 2), (12, 101, 30))  # fewer points are better in Kozel
    assert places("kozel", kozel) == [1, 3, 2]


def test_a_free_for_all_moves_exactly_as_openskill_rates_it() -> None:
    state = finished("tyaga", 3, (1,), (30, 101, 55))
    seated = [Entrant("tg:1", 0), Entrant("tg:2", 1), Entrant("tg:3", 2)]
    before = {"tg:1": Rating("A", 27.0, 6.0), "tg:2": Rating("B"), "tg:3": Rating("C", 20.0, 4.0)}
    after = rate("tyaga", state, seated, before)
    model = PlackettLuce()
    expected = model.rate(
        [
            [model.create_rating([27.0, 6.0])],
            [model.create_rating([25.0, 25 / 3])],
            [model.create_rating([20.0, 4.0])],
        ],
        ranks=[3.0, 1.0, 2.0],
    )
    for key, [want] in zip(("tg:1", "tg:2", "tg:3"), expected, strict=True):
        assert after[key].mu == pytest.approx(want.mu)
        assert after[key].sigma == pytest.approx(want.sigma)
    assert after["tg:2"].mu > 25.0 > after["tg:1"].mu - 2.0
    assert [after[k].played for k in ("tg:1", "tg:2", "tg:3")] == [1, 1, 1]
    assert (after["tg:2"].won, after["tg:1"].won, after["tg:2"].best, after["tg:1"].best) == (
        1,
        0,
        1,
        3,
    )


def test_a_tie_is_rated_as_a_tie() -> None:
    state = finished("tyaga", 3, (0,), (101, 20, 20))
    seated = [Entrant(f"k{n}", n) for n in range(3)]
    after = rate("tyaga", state, seated, start({"k0": "A", "k1": "B", "k2": "C"}))
    assert after["k1"].mu == pytest.approx(after["k2"].mu)
    assert after["k1"].recent[0].startswith("23")  # second of three


def test_kozel_in_teams_moves_both_partners_as_one_team() -> None:
    state = finished("kozel", 4, (1, 3), (101, 40, 101, 40), teams="on")
    seated = [Entrant(f"k{n}", n) for n in range(4)]
    after = rate("kozel", state, seated, start({f"k{n}": str(n) for n in range(4)}))
    model = PlackettLuce()
    [[lose, _], [win, _]] = model.rate(
        [[model.rating(), model.rating()], [model.rating(), model.rating()]], ranks=[2.0, 1.0]
    )
    assert after["k1"].mu == pytest.approx(win.mu) and after["k3"].mu == pytest.approx(win.mu)
    assert after["k0"].mu == pytest.approx(lose.mu) and after["k2"].mu == pytest.approx(lose.mu)


def test_computers_are_rated_by_level_and_people_only_by_their_own_key() -> None:
    doc = GameDoc(
        id="g1",
        chat=ChatRef("tg", "-1"),
        status=FINISHED,
        variant="tyaga",
        options={},
        seed=0,
        seats=(Seat(user=ANNA), Seat(computer="greedy"), Seat(user=BORIS)),
        host=ANNA.key,
        settings=TableSettings(timer=0, auto_start=False, pings=True, lang="en"),
        created=0.0,
    )
    assert [e.key for e in entrants(doc)] == [ANNA.key, COMPUTER + "greedy", BORIS.key]


def test_a_stored_rating_reads_back_and_stays_short() -> None:
    rating = Rating("Anna; the best", 31.25, 4.5, 12, 5, 1, ("13+1.3", "24-0.2"))
    assert decode(encode(rating)) == Rating(
        "Anna; the best", 31.25, 4.5, 12, 5, 1, ("13+1.3", "24-0.2")
    )
    full = Rating("N" * 40, 31.2345, 4.5678, 999, 999, 6, ("66-10.5",) * 3)
    line = encode(full)
    assert len(line.encode()) <= 64  # Redis keeps hashes of such values compact
    assert decode(line).name == "N" * 18
    assert decode(None, "new").mu == PlackettLuce().mu


def test_the_figure_shown_is_the_one_the_stored_rating_gives() -> None:
    # An ordinal of -1.8497 is -1.8, but mu and sigma kept to two decimals make it -1.85.
    rating = Rating("You", 22.3597, 8.0698)
    assert rating.shown == decode(encode(rating)).shown == -1.9
