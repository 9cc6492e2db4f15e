"""Screens of ratings: the leaderboards (``top``) and each game's rating in ``stats``.

A leaderboard lists people by their conservative estimate (the ordinal), those with
fewer than :data:`~bot.model.ratings.PROVISIONAL` matches apart as provisional, and the
computer levels apart from people.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Final

from bot.model.contract import ChatRef, Screen, TextLine, UserRef, isolated
from bot.model.ratings import COMPUTER, Rating
from bot.storage.store import Store
from bot.views.i18n import Translator, text_line
from bot.views.texts import computer_name, error_text, variant_title
from engine import DominoError, all_variants, get_variant

SHOWN: Final = 10  # rows of each part of a leaderboard
FETCHED: Final = 100  # players read for one leaderboard, computers and provisional included


async def top_screen(
    store: Store,
    chat: ChatRef,
    args: tuple[str, ...],
    _: Translator,
    asker: UserRef | None = None,
    chats: Sequence[ChatRef] = (),
) -> Screen:
    """``top [global] [GAME]``: the leaderboard of one game (one round trip), or of
    each rated game when none is named; in this chat, or across every chat. The
    computers and the ``asker`` are named as this screen names them (see
    :func:`shown_name`). ``chats``: a group of chats, this one among them, that are one
    place to their players (see :func:`group_leaders`)."""
    words = list(args)
    everywhere = bool(words) and words[0].lower() == "global"
    words = words[1:] if everywhere else words
    if len(words) > 1:
        return Screen((text_line(_("Usage: top [global] [GAME]")),))
    try:
        named = [get_variant(words[0]).name] if words else []
    except DominoError as exc:
        return Screen((text_line(error_text(_, exc)),))
    lines: list[TextLine] = []
    group = tuple(chats) if len(chats) > 1 and not everywhere else ()
    for name in named or [v.name for v in all_variants()]:
        if group:
            rows = await group_leaders(store, group, name)
        else:
            rows, _count = await store.leaders(None if everywhere else chat, name, FETCHED)
        if rows or named:
            lines += _board(_, name, everywhere or bool(group), rows, asker)
    if not lines:
        lines.append(text_line(_("Nobody has a rating here yet.")))
    return Screen(tuple(lines))


async def group_leaders(
    store: Store, chats: Sequence[ChatRef], variant: str
) -> list[tuple[str, Rating]]:
    """The leaderboard of a group of chats: everyone rated in any of them, by his rating
    across every chat. Chats' own ratings cannot be merged: each is a skill estimate
    moved by that chat's matches in turn, not a count that adds up, and no mean of
    them is the estimate all the matches would have given. A person's rating across
    every chat is that estimate when the group's chats are the only ones he plays in
    (a terminal's keyboard players); a computer's counts its matches everywhere."""
    names: dict[str, str] = {}
    for chat in chats:
        rows, _count = await store.leaders(chat, variant, FETCHED)
        names |= {key: rating.name for key, rating in rows}
    if not names:
        return []
    found = await store.global_ratings(variant, names)
    return sorted(found.items(), key=lambda item: item[1].ordinal, reverse=True)


def _board(
    _: Translator,
    variant: str,
    everywhere: bool,
    rows: list[tuple[str, Rating]],
    asker: UserRef | None,
) -> list[TextLine]:
    game = variant_title(_, variant)
    title = (
        _("Ratings in %(game)s, all chats:", game=game)
        if everywhere
        else _("Ratings in %(game)s, this chat:", game=game)
    )
    lines = [text_line(title)]
    named = [(key, replace(r, name=shown_name(_, key, r.name, asker))) for key, r in rows]
    people = [r for key, r in named if not key.startswith(COMPUTER)]
    established = [r for r in people if not r.provisional]
    provisional = [r for r in people if r.provisional]
    computers = [r for key, r in named if key.startswith(COMPUTER)]
    if not rows:
        lines.append(text_line(_("Nobody has a rating here yet.")))
    for rank, rating in enumerate(established[:SHOWN], 1):
        lines.append(text_line(f"{rank}. {_row(_, rating)}"))
    if provisional:
        lines.append(text_line(_("Provisional (fewer matches):")))
        lines += [text_line(f"• {_row(_, r)}") for r in provisional[:SHOWN]]
    if computers:
        lines.append(text_line(_("Computers:")))
        lines += [text_line(f"• {_row(_, r)}") for r in computers[:SHOWN]]
    return lines


def shown_name(_: Translator, key: str, stored: str, asker: UserRef | None = None) -> str:
    """A rated player's name on a screen: a computer by its level, in the screen's
    language; the one who asked as he is named now (at the terminal, "You" in the
    language of this session, whatever the language of the match that stored it);
    anyone else as stored with his results. A person's name comes isolated (see
    :func:`~bot.model.contract.isolated`), a computer's level as it is."""
    if key.startswith(COMPUTER):
        return computer_name(_, key.removeprefix(COMPUTER))
    if asker is not None and key == asker.key:
        return isolated(asker.name)
    return isolated(stored)


def _row(translator: Translator, rating: Rating) -> str:
    return translator.ngettext(
        "%(name)s %(rating)s (%(n)d match)",
        "%(name)s %(rating)s (%(n)d matches)",
        rating.played,
        name=rating.name,
        rating=translator.decimal(rating.shown),
    )


async def rating_lines(store: Store, user: UserRef, _: Translator) -> list[TextLine]:
    """A person's rating in each game he has played: the figure, its change over his
    last matches, matches played and won, best finish, and the last few results."""
    found = await store.player_ratings(user.key, [v.name for v in all_variants()])
    lines: list[TextLine] = []
    for variant, rating in found.items():
        changes = [float(_result(r)[2]) for r in rating.recent]
        lines.append(
            text_line(
                _(
                    "%(game)s: rating %(rating)s (%(change)s over the last %(n)d), "
                    "won %(won)d of %(played)d, best finish %(best)d",
                    game=variant_title(_, variant),
                    rating=_.decimal(rating.shown),
                    change=_.decimal(sum(changes), signed=True),
                    n=len(changes),
                    won=rating.won,
                    played=rating.played,
                    best=rating.best,
                )
            )
        )
        results = ", ".join(
            _(
                "place %(place)s of %(seats)s (%(change)s)",
                place=p,
                seats=s,
                change=_.decimal(float(c), signed=True),
            )
            for p, s, c in (_result(r) for r in rating.recent)
        )
        lines.append(text_line(_("Last results: %(results)s", results=results)))
    return lines


def _result(recent: str) -> tuple[str, str, str]:
    """``13+1.3`` (first of 3, up 1.3) as place, seats and change."""
    return recent[0], recent[1], recent[2:]


def rating_row(translator: Translator, rating: Rating) -> str:
    """A person's rating as a leaderboard writes it: name (isolated), figure and matches."""
    return _row(translator, replace(rating, name=isolated(rating.name)))
