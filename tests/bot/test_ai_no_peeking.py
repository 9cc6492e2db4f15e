"""Computers never peek: in every game and at every level, the move a computer makes
for the bot (its question built from the game as :func:`bot.table.match_steps.question` builds it,
answered as a worker answers it) is the same when the tiles its seat cannot see are
dealt again among the other hands and the boneyard, with the same dice. The help and
the rules tell players so."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot import ai
from bot.ai.clues import clues
from bot.ai.review import judge_decision
from bot.ai.thinker import answer
from bot.model.contract import ChatRef
from bot.model.gamedoc import RUNNING, GameDoc, Seat, TableSettings
from bot.table.lookups import FAIR_PLAY, help_screen, rules_screen
from bot.table.match_steps import question
from bot.views.i18n import available_languages, translator
from engine import State, legal_moves, view
from tests.bot.test_ai_strong import GAMES, positions, scrambled

ALLOWANCE = ai.Allowance.of_worlds(12)


def game_of(state: State[Any], moves: list[tuple[int, str]], seed: int) -> GameDoc:
    """A running game of computers at ``state``, this deal's ``moves`` its own."""
    return GameDoc(
        id="nopeek00",
        chat=ChatRef("tg", "-1"),
        status=RUNNING,
        variant=state.variant,
        options=dict(state.options),
        seed=seed,
        seats=tuple(Seat(computer="strong") for _ in range(state.players)),
        host=None,
        settings=TableSettings(timer=0, auto_start=False, pings=False, lang="en"),
        created=0.0,
        deals=(state.dealt,),
        deal_starts=(0,),
        moves=tuple(moves),
    )


@pytest.mark.parametrize("level", ["random", "greedy", "strong"])
@pytest.mark.parametrize(("variant", "players"), GAMES)
def test_a_computers_move_does_not_change_when_the_hidden_tiles_do(
    variant: str, players: int, level: str
) -> None:
    rng = random.Random(21)
    changed = 0
    for number, (state, moves) in enumerate(positions(variant, players, 17, 25)):
        seat = state.turn
        assert seat is not None
        doc = game_of(state, moves, number)
        chosen = answer(question(doc, state, level, ALLOWANCE))
        for _ in range(3):
            other = scrambled(state, seat, rng)
            changed += other.hands != state.hands
            assert view(other, seat) == view(state, seat)
            assert answer(question(doc, other, level, ALLOWANCE)) == chosen, (number, moves)
    assert changed > 0


@pytest.mark.parametrize("lang", available_languages())
@pytest.mark.parametrize("game", [None, *(v for v, _players in GAMES)])
def test_the_help_and_every_games_rules_tell_players_computers_play_fair(
    lang: str, game: str | None
) -> None:
    _ = translator(lang)
    said = _(FAIR_PLAY)
    assert lang == "en" or said != FAIR_PLAY  # said in the player's own language
    shown = help_screen(_) if game is None else rules_screen(_, (game,), None)
    assert said in shown.plain_text().splitlines()


@pytest.mark.parametrize(("variant", "players"), GAMES)
def test_a_reviews_judgement_does_not_change_when_the_hidden_tiles_do(
    variant: str, players: int
) -> None:
    rng = random.Random(5)
    changed = 0
    for number, (state, moves) in enumerate(positions(variant, players, 29, 8)):
        seat = state.turn
        assert seat is not None
        lacks = clues(variant, players, moves)
        made = legal_moves(state)[0]
        dice = f"{number}/review"
        judged = judge_decision(view(state, seat), lacks, made, random.Random(dice), 20)
        other = scrambled(state, seat, rng)
        changed += other.hands != state.hands
        again = judge_decision(view(other, seat), lacks, made, random.Random(dice), 20)
        assert again == judged
    assert changed > 0
