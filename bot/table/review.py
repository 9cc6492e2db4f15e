""" "Review my play": a finished match looked at again from one player's seat.

A person who played a kept match (see :mod:`bot.table.history`) may ask for a review of his
play in it: the button on his hand when the match ends (his private chat; on Discord
his ephemeral hand), or ``review`` typed at the table, for his newest kept match there.
The strong computer judges each of his decisions from what he could see then
(:mod:`bot.ai.review`), in the computer players' worker pool, off the event loop. The
answer tells up to three decisions that cost him at least 5 points of his chance of
winning the match, each with the position (a picture of the table then, where the
chat takes pictures), his move, the computer's and the difference; or that it found
no costly decision. A review is kept beside its match once made, in no language, and
told in the asker's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict, ValidationError

from bot.ai.review import Judged, ReviewJob, state_before
from bot.ai.thinker import Thinker
from bot.model import codec
from bot.model.contract import Answer, ChatRef, Command, Notice, Outbound, Press, Screen, UserRef
from bot.model.gamedoc import GameDoc
from bot.storage.history import MatchHistory
from bot.storage.kept_match import KeptMatch
from bot.table.history import newest, read_kept
from bot.table.play import private_chat
from bot.views.i18n import Translator, text_line
from bot.views.texts import move_label, tiles_text, variant_title
from engine import format_move, parse_move, view

if TYPE_CHECKING:
    from bot.table.runner import Runner


class Reviewed(BaseModel):
    """One costly decision as a review keeps it (chances from 0 to 1)."""

    model_config = ConfigDict(frozen=True)

    index: int  # the move's index in the match
    played: str
    best: str
    played_chance: float
    best_chance: float


class KeptReview(BaseModel):
    model_config = ConfigDict(frozen=True)

    decisions: list[Reviewed]


def field_of(user: UserRef) -> str:
    return f"review:{user.key}"


def job_for(doc: GameDoc, seat: int) -> ReviewJob:
    # A plain dict: the job goes to a worker process, and a read-only mapping does not pickle.
    options = dict(doc.options)
    return ReviewJob(doc.variant, len(doc.seats), options, doc.seed, doc.deals, doc.moves, seat)


def kept(judged: tuple[Judged, ...]) -> KeptReview:
    return KeptReview(
        decisions=[
            Reviewed(
                index=j.index,
                played=format_move(j.played),
                best=format_move(j.best),
                played_chance=j.played_chance,
                best_chance=j.best_chance,
            )
            for j in judged
        ]
    )


async def pressed(
    runner: Runner, thinker: Thinker, press: Press, action: codec.ReplayPick, _: Translator
) -> list[Outbound]:
    """The Review button of a finished match's hand."""
    chat = action.chat if action.chat is not None else press.chat
    if chat != press.chat and press.chat != private_chat(press.user):
        return [Answer(_("That button is not one of mine, or it is too old."))]
    match = await read_kept(runner, chat, action.game_id)
    if match is None:
        return [Answer(_("That match is no longer kept here."))]
    told = await told_review(runner, thinker, chat, match, press.user, _)
    return [Answer(_("Your review is in your private chat with the bot.")), *told]


async def asked(
    runner: Runner, thinker: Thinker, command: Command, _: Translator
) -> Screen | list[Outbound]:
    """``review``: the asker's review of his newest kept match in this chat."""
    for match in await newest(runner.store.history, command.chat, runner.clock()):
        if any(p.user == command.user.key for p in match.players):
            return await told_review(runner, thinker, command.chat, match, command.user, _)
    return Screen((text_line(_("You have played no finished match kept in this chat.")),))


async def told_review(
    runner: Runner,
    thinker: Thinker,
    chat: ChatRef,
    match: KeptMatch,
    user: UserRef,
    _: Translator,
) -> list[Outbound]:
    """The review of ``user``'s play in ``match``, made now or read as kept, as his
    private notices: the text, then a picture of each position."""
    seat = next((n for n, p in enumerate(match.players) if p.user == user.key), None)
    to = private_chat(user)
    if seat is None:
        text = _("Only those who played a match can review their play in it.")
        return [Notice(to, Screen((text_line(text),)))]
    doc = match.doc()
    history = runner.store.history
    found = await read(field_of(user), history, chat, match.id)
    if found is None:
        found = kept(await thinker.review(job_for(doc, seat)))
        await history.add_field(chat, match.id, field_of(user), found.model_dump_json())
    return await review_notices(runner, to, doc, seat, found, _)


async def read(
    field: str, history: MatchHistory, chat: ChatRef, match_id: str
) -> KeptReview | None:
    """A review kept beside its match, if one was made."""
    raw = await history.one(chat, f"{match_id}>{field}")
    try:
        return KeptReview.model_validate_json(raw) if raw is not None else None
    except ValidationError:
        return None


async def review_notices(
    runner: Runner, to: ChatRef, doc: GameDoc, seat: int, review: KeptReview, _: Translator
) -> list[Outbound]:
    title = variant_title(_, doc.variant)
    heading = _("Your play in %(game)s, table %(id)s:", game=title, id=doc.id)
    if not review.decisions:
        text = _(
            "The computer found no costly decision: none of your moves cost you 5 points "
            "or more of your chance of winning."
        )
        return [Notice(to, Screen((text_line(heading), text_line(text))))]
    lines = [text_line(heading)]
    pictures: list[Outbound] = []
    job = job_for(doc, seat)
    for number, decision in enumerate(review.decisions, 1):
        state = state_before(job, decision.index)
        seen = view(state, seat)
        played, best = parse_move(decision.played), parse_move(decision.best)
        lines.append(
            text_line(
                _(
                    "%(n)d. Deal %(deal)d, your tiles %(tiles)s: you played %(played)s, the "
                    "computer prefers %(best)s, about %(points)d points more chance of winning "
                    "(%(better)d%% against %(yours)d%%).",
                    n=number,
                    deal=state.deal_number,
                    tiles=tiles_text(sorted(seen.hand, reverse=True)),
                    played=move_label(_, played),
                    best=move_label(_, best),
                    points=round((decision.best_chance - decision.played_chance) * 100),
                    better=round(decision.best_chance * 100),
                    yours=round(decision.played_chance * 100),
                )
            )
        )
        shown = await runner.painter.table(_, doc, state)
        caption = (text_line(_("Decision %(n)d: the table before your move.", n=number)),)
        pictures.append(Notice(to, Screen(caption, picture=shown.picture)))
    return [Notice(to, Screen(tuple(lines))), *pictures]
