"""Ratings: one per player per game, moved by each counted match with OpenSkill.

A match is a finishing order: the winners first, then the others by their match
score (in Kozel fewer points are better, elsewhere more), equal scores as ties. Kozel
in teams rates the two pairs as teams, so both partners move together; every other
table is a free-for-all under Plackett–Luce. Computer seats are rated too, one
player per level (``cpu:greedy``), so a win over a strong computer counts for more.

Leaderboards order players by the conservative estimate ``mu - 3 sigma`` (OpenSkill's
ordinal). A stored rating is one short line of text (see :func:`encode`), so a rated
player costs a few dozen bytes per game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Final

from openskill.models import PlackettLuce

from bot.model.gamedoc import GameDoc
from engine import State, get_variant, variant_of

MODEL: Final = PlackettLuce()
PROVISIONAL: Final = 5
"""Matches a player needs before a leaderboard lists him as established."""
HISTORY: Final = 3
"""Results kept per player and game for the stats."""
NAME_KEPT: Final = 18
"""Characters of a name a stored rating keeps (a line stays within Redis's compact size)."""
KEPT_DECIMALS: Final = 2
"""Decimals of mu and sigma a stored rating keeps."""
COMPUTER: Final = "cpu:"


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's standing in one game: the skill estimate and what he has done."""

    name: str
    mu: float = MODEL.mu
    sigma: float = MODEL.sigma
    played: int = 0
    won: int = 0
    best: int = 0  # best finishing place (1 is first), 0 before any match
    recent: tuple[str, ...] = ()  # latest first: place, seats, change, e.g. "13+1.3"

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma

    @property
    def shown(self) -> float:
        """The figure people see: the ordinal, as leaderboards order by it, worked out
        from mu and sigma as :func:`encode` keeps them, so that what the end of a match
        says of a rating is what every later look at the stored one says."""
        return round(round(self.mu, KEPT_DECIMALS) - 3 * round(self.sigma, KEPT_DECIMALS), 1)

    @property
    def provisional(self) -> bool:
        return self.played < PROVISIONAL


@dataclass(frozen=True, slots=True)
class Entrant:
    """One rated seat of a finished match."""

    key: str  # a user key, or cpu:LEVEL
    seat: int


def encode(rating: Rating) -> str:
    """``mu;sigma;played;won;best;recent,…;name`` (the name last: it may hold ``;``)."""
    return ";".join(
        (
            f"{rating.mu:.{KEPT_DECIMALS}f}",
            f"{rating.sigma:.{KEPT_DECIMALS}f}",
            str(rating.played),
            str(rating.won),
            str(rating.best),
            ",".join(rating.recent),
            rating.name[:NAME_KEPT],
        )
    )


def decode(raw: str | bytes | None, name: str = "") -> Rating:
    """A stored rating, or a new player's for ``None``."""
    if raw is None:
        return Rating(name)
    text = raw.decode() if isinstance(raw, bytes) else raw
    mu, sigma, played, won, best, recent, stored_name = text.split(";", 6)
    return Rating(
        name=stored_name,
        mu=float(mu),
        sigma=float(sigma),
        played=int(played),
        won=int(won),
        best=int(best),
        recent=tuple(r for r in recent.split(",") if r),
    )


def entrants(doc: GameDoc) -> list[Entrant]:
    """The rated seats: every person, and every computer by its level."""
    found = []
    for seat, held in enumerate(doc.seats):
        if held.user is not None:
            found.append(Entrant(held.user.key, seat))
        elif held.computer:
            found.append(Entrant(COMPUTER + held.computer, seat))
    return found


def places(variant: str, state: State[Any]) -> list[int]:
    """Each seat's finishing place (1 is first; equal places are ties)."""
    lower_wins = get_variant(variant).lower_wins
    winners = set(state.winners)

    def standing(seat: int) -> tuple[int, int]:
        score = state.match_scores[seat]
        return (0 if seat in winners else 1, score if lower_wins else -score)

    keys = [standing(seat) for seat in range(state.players)]
    return [1 + sum(1 for other in keys if other < mine) for mine in keys]


def teams_of(state: State[Any]) -> list[tuple[int, ...]]:
    """Seats grouped as the match scored them: Kozel's pairs, else one seat each."""
    pairs: list[tuple[int, ...]] = list(variant_of(state).teams(state.options))
    return pairs or [(seat,) for seat in range(state.players)]


Result = tuple[tuple[int, tuple[tuple[str, bool], ...]], ...]
"""A finished match as rating needs it: each side's place and its (player key, won)
members. Kept apart from the state so it can wait in Redis and be rated later."""


def result_of(variant: str, state: State[Any], seated: Sequence[Entrant]) -> Result:
    """The sides of the finished match ``state`` that hold rated seats, with their places."""
    place = places(variant, state)
    by_seat = {e.seat: e for e in seated}
    groups = [
        [by_seat[s] for s in team if s in by_seat]
        for team in teams_of(state)
        if any(s in by_seat for s in team)
    ]
    return tuple(
        (
            min(place[e.seat] for e in group),
            tuple((e.key, e.seat in state.winners) for e in group),
        )
        for group in groups
    )


def rate(
    variant: str,
    state: State[Any],
    seated: Sequence[Entrant],
    current: dict[str, Rating],
) -> dict[str, Rating]:
    """The ratings of ``seated`` after the finished match ``state`` (``current`` holds
    each one's rating before it)."""
    return rate_result(result_of(variant, state, seated), current)


def rate_result(result: Result, current: dict[str, Rating]) -> dict[str, Rating]:
    """The ratings of the players of ``result`` (``current`` holds each one's rating
    before it). A key seated twice (two computers of one level) moves as its
    better-placed seat."""
    if len(result) < 2:
        return {}
    teams = [
        [MODEL.create_rating([current[key].mu, current[key].sigma]) for key, _ in members]
        for _, members in result
    ]
    ranks = [rank for rank, _ in result]
    rated = MODEL.rate(teams, ranks=[float(r) for r in ranks])
    results = [
        (key, won, new, rank)
        for (rank, members), team in zip(result, rated, strict=True)
        for (key, won), new in zip(members, team, strict=True)
    ]
    updated: dict[str, Rating] = {}
    # The better-placed seat of a repeated key is written last, so it is the one kept.
    for key, won, new, rank in sorted(results, key=lambda found: -found[3]):
        before = current[key]
        after = replace(before, mu=float(new.mu), sigma=float(new.sigma))
        change = after.shown - before.shown
        updated[key] = replace(
            after,
            played=before.played + 1,
            won=before.won + int(won),
            best=rank if before.best == 0 else min(before.best, rank),
            recent=(f"{rank}{len(result)}{change:+.1f}", *before.recent)[:HISTORY],
        )
    return updated
