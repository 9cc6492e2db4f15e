"""How a deal begins and ends, the same in every game.

A deal begins with tiles dealt (from a scripted fixture, or shuffled from the
seed, again while the rules refuse the shuffle), a leader, and a fresh table;
it ends with its result written down, the match totals updated and, when
someone has won, the match closed. Each game decides the leader, the scores
and the winners; these functions only record them, so that no game can record
a deal differently from the others.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

from engine.dealing import check_fixture, rng, shuffle_deal
from engine.errors import BadFixture
from engine.state import DealResult, Event, Fixture, OptionValue, State
from engine.tiles import Tile

D = TypeVar("D")

#: Why the rules would deal a deal again (a reason to show), or ``None`` to keep it.
Redeal = Callable[[Fixture], str | None]


# -- dealing -------------------------------------------------------------------


def deal_tiles(
    tiles: Sequence[Tile],
    players: int,
    hand_size: int,
    seed: int,
    deal_number: int,
    fixture: Fixture | None,
    *,
    leader_rule: str | None = None,
    redeal: Redeal | None = None,
) -> tuple[Fixture, int]:
    """This deal as dealt, and how many shuffles the rules threw away first.

    A ``fixture`` is checked and kept: it must hold exactly ``tiles`` in hands of
    ``hand_size``, name no leader when ``leader_rule`` says how the rules choose
    one, and be a deal ``redeal`` accepts. Without one, the tiles are shuffled
    from the seed, and shuffled again (the next attempt) while ``redeal`` gives a
    reason.
    """
    if fixture is not None:
        check_fixture(fixture, tiles, players, hand_size)
        if leader_rule is not None and fixture.leader is not None:
            raise BadFixture(f"{leader_rule}; leave 'leader' out")
        why = redeal(fixture) if redeal is not None else None
        if why is not None:
            raise BadFixture(why)
        return fixture, 0
    attempt = 0
    dealt = shuffle_deal(tiles, players, hand_size, seed, deal_number, attempt)
    while redeal is not None and redeal(dealt) is not None:
        attempt += 1
        dealt = shuffle_deal(tiles, players, hand_size, seed, deal_number, attempt)
    return dealt, attempt


def with_drawn_leader(dealt: Fixture, seed: int, players: int) -> Fixture:
    """The deal with its leader drawn at random, unless the fixture names one.

    The leader goes into the deal as dealt, so that replaying it draws no one.
    """
    leader = dealt.leader
    if leader is None:
        leader = rng(seed, "leader").randrange(players)
    elif not 0 <= leader < players:
        raise BadFixture(f"leader {leader} is not a seat")
    return Fixture(dealt.hands, dealt.boneyard, leader)


def first_deal(
    variant: str,
    players: int,
    options: Mapping[str, OptionValue],
    seed: int,
    dealt: Fixture,
    leader: int,
    detail: D,
) -> State[D]:
    """A new match at the start of its first deal, played as dealt: no moves
    and no scores yet."""
    scores = (0,) * players
    return _fresh(variant, players, options, seed, 1, 0, scores, None, dealt, leader, detail)


def deal_after(previous: State[Any], dealt: Fixture, leader: int, detail: D) -> State[D]:
    """The start of the deal that follows ``previous`` (which is over), played as dealt.

    The totals and the move counter carry over, and the last deal's result
    stays on show until this one ends.
    """
    number = previous.deal_number + 1
    return _fresh(
        previous.variant,
        previous.players,
        previous.options,
        previous.seed,
        number,
        previous.counter,
        previous.match_scores,
        previous.result,
        dealt,
        leader,
        detail,
    )


def _fresh(
    variant: str,
    players: int,
    options: Mapping[str, OptionValue],
    seed: int,
    deal_number: int,
    counter: int,
    match_scores: tuple[int, ...],
    result: DealResult | None,
    dealt: Fixture,
    leader: int,
    detail: D,
) -> State[D]:
    # Positional, in the order of State's fields: a keyword call to a named
    # tuple's constructor costs several times as much.
    return State(
        variant,
        players,
        options,
        seed,
        deal_number,
        dealt.hands,  # hands
        dealt.boneyard,  # boneyard
        (),  # line
        None,  # ends
        leader,  # turn
        leader,  # leader
        counter,
        None,  # last_player
        match_scores,
        result,
        False,  # deal_over
        False,  # match_over
        (),  # winners
        dealt,
        detail,
    )


# -- ending ----------------------------------------------------------------------


def can_play(hand: tuple[Tile, ...], ends: tuple[int, int] | None) -> bool:
    """Whether a tile of ``hand`` matches an open end (any tile leads a bare table)."""
    if ends is None:
        return bool(hand)
    left, right = ends
    # A plain loop: about twice as fast as any() over a generator, and this runs after every move.
    for t in hand:  # noqa: SIM110
        if t.hi == left or t.lo == left or t.hi == right or t.lo == right:
            return True
    return False


def nobody_can_move(state: State[Any]) -> bool:
    """A block: nothing left to draw and no tile in any hand matches an end."""
    if state.boneyard:
        return False
    ends = state.ends
    for hand in state.hands:  # noqa: SIM110  (a plain loop, as in can_play)
        if can_play(hand, ends):
            return False
    return True


def lowest_seats(values: Sequence[int]) -> tuple[int, ...]:
    """Every seat that shares the lowest value."""
    low = min(values)
    return tuple(seat for seat, value in enumerate(values) if value == low)


def sole_lowest(values: Sequence[int]) -> int | None:
    """The seat with strictly the lowest value; ``None`` when seats tie for it."""
    lowest = lowest_seats(values)
    return lowest[0] if len(lowest) == 1 else None


def finish_deal(
    state: State[D],
    events: Iterable[Event],
    result: DealResult,
    totals: tuple[int, ...],
    winners: tuple[int, ...],
    detail: D | None = None,
) -> tuple[State[D], tuple[Event, ...]]:
    """Close the deal: nobody to move, ``result`` written, the match totals now
    ``totals``, and the match over when there are ``winners``.

    Returns the closed state and ``events`` followed by ``deal_over`` (and
    ``match_over``). ``detail``, when given, replaces the variant's detail.
    """
    info = (("end", result.end.value), ("winner", result.winner), ("scores", result.scores))
    closing = [*events, Event("deal_over", result.winner, info=info)]
    if winners:
        closing.append(Event("match_over", info=(("winners", winners),)))
    over = state.but(
        turn=None,
        match_scores=totals,
        result=result,
        deal_over=True,
        match_over=bool(winners),
        winners=winners,
        detail=state.detail if detail is None else detail,
    )
    return over, tuple(closing)
