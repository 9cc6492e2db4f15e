"""Scoring Thief of Baghdad: the ``match`` option, what a deal writes for each
seat, and when the match is over (after its deals, or at its target)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from engine.errors import BadOption
from engine.options import ascii_number, ascii_word
from engine.rounds import finish_deal
from engine.state import DealEnd, DealResult, Event, OptionValue
from engine.tiles import DOUBLE_SIX
from engine.variants.baghdad_caravans import CUFF_TILES, THIEVES, BaghdadState, Outcome

#: What a tile left in a hand is worth to the opponent, by tile index.
HAND_VALUE: Final = tuple(6 if t in THIEVES else 3 if t in CUFF_TILES else 1 for t in DOUBLE_SIX)
MAX_DEALS: Final = 100
MAX_TARGET: Final = 1000


def parse_match(text: str) -> str:
    """Normalise the ``match`` option: ``deals:N`` (N even) or ``target:N``, read in ASCII
    (see :mod:`engine.options`)."""
    word = ascii_word(text.replace(" ", ""))
    kind, _, number = (word or "").partition(":")
    if kind not in ("deals", "target"):
        raise _bad_match(text, "write deals:N (an even number of deals) or target:N (points)")
    n = ascii_number(number or ("6" if kind == "deals" else "100"))
    if n is None:
        raise _bad_match(text, f"{number!r} is not a whole number")
    if kind == "deals" and not (2 <= n <= MAX_DEALS and n % 2 == 0):
        raise _bad_match(text, f"the number of deals must be even, from 2 to {MAX_DEALS}")
    if kind == "target" and not 1 <= n <= MAX_TARGET:
        raise _bad_match(text, f"the target must be from 1 to {MAX_TARGET} points")
    return f"{kind}:{n}"


def _bad_match(text: str, why: str) -> BadOption:
    return BadOption(f"option match={text}: {why}", option="match", value=text, why=why)


def deal_points(state: BaghdadState) -> tuple[int, ...]:
    """What each seat writes for the deal: the camels of his caravans, the
    tiles left in his opponent's hand, and the penalty points he received."""
    detail = state.detail
    points = list(detail.penalties)
    for caravan in detail.caravans:
        if caravan.owner is not None:
            points[caravan.owner] += len(caravan.camels)
    for seat, hand in enumerate(state.hands):
        points[1 - seat] += sum(HAND_VALUE[t.index] for t in hand)
    return tuple(points)


def end_deal(state: BaghdadState, end: DealEnd, events: list[Event]) -> Outcome:
    """Write the deal's points; the match ends after its deals or at its target."""
    points = deal_points(state)
    # The penalty points are in the running totals already.
    gained = (p - k for p, k in zip(points, state.detail.penalties, strict=True))
    totals = tuple(t + g for t, g in zip(state.match_scores, gained, strict=True))
    best = _best(points)
    winner = best[0] if len(best) == 1 else None
    winners = _best(totals) if _match_over(state, totals) else ()
    return finish_deal(state, events, DealResult(end, winner, points), totals, winners)


def _best(scores: tuple[int, ...]) -> tuple[int, ...]:
    top = max(scores)
    return tuple(seat for seat, score in enumerate(scores) if score == top)


def match_length(options: Mapping[str, OptionValue]) -> tuple[int | None, int | None]:
    """The target of a ``target:N`` match, or the deals of a ``deals:N`` one; the other
    ``None``."""
    kind, _, number = str(options["match"]).partition(":")
    if kind == "deals":
        return None, int(number)
    return int(number), None


def _match_over(state: BaghdadState, totals: tuple[int, ...]) -> bool:
    target, deals = match_length(state.options)
    if deals is not None:
        return state.deal_number >= deals
    assert target is not None
    return max(totals) >= target
