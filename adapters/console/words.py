"""What the player may type besides a move, and the replay files ``export`` writes;
the same words work in the line mode and at the full-screen table's prompt."""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from adapters.console.draw import sentence
from bot.model.contract import Button, Document, Notice, Outbound, Response
from bot.table.typed_moves import NotAMove, offered_moves, typed_press
from bot.views.i18n import DEFAULT_LANG, N_, Translator, translator

QUIT_WORDS: Final = frozenset({"quit", "exit", "q"})
HELP_WORDS: Final = frozenset({"help", "?", "h"})

HELP: Final = N_("""\
Type the number of a move, or the move itself as hint writes it (6-4@L puts
the [6|4] at the left end). Also:
  hint       your moves, written out
  table      show the table again (table --png FILE: as a picture, into FILE)
  rules      the rules of this game
  scores     this table's scoreboard (scores GAME: one game's)
  stats      your results and ratings in every game
  top        the best-rated players (top GAME; top global GAME: everywhere)
  mydata     what is kept about you, and for how long
  export     save the game so far as a replay file in exports/ (export FOLDER: there)
  history    this table's finished matches (history N: the Nth's replay into exports/)
  review     how your play in your last finished match here could have been better
  discard    end this match for good; nothing of it is kept
  quit       leave; the match is saved (%(command)s continues it)""")


def help_word(word: str) -> bool:
    return word in HELP_WORDS


def help_text(_: Translator) -> str:
    return _(HELP, command=resume_command())


def resume_command(
    argv: Sequence[str] | None = None, environ: Mapping[str, str] | None = None
) -> str:
    """The command that continues a saved match, as the person at this terminal can
    type it where he is: ``domino-bot`` when that is on his PATH, ``make run`` when
    make started it from the project's own folder (``make run`` does not put it on
    PATH), else the program as he called it."""
    argv = sys.argv if argv is None else argv
    environ = os.environ if environ is None else environ
    program = Path(argv[0]) if argv else Path("domino-bot")
    if program.name == "__main__.py" and program.parent.name == "bot":
        return "python -m bot play --resume"
    if program.name != "domino-bot":
        return "domino-bot play --resume"
    on_path = shutil.which("domino-bot", path=environ.get("PATH"))
    if on_path is not None and Path(on_path).resolve() == program.resolve():
        return "domino-bot play --resume"
    if "MAKELEVEL" in environ:
        return 'make run ARGS="play --resume"'
    return f"{argv[0]} play --resume"


Ask = Callable[..., Awaitable[list[Outbound]]]
"""Sends the core a command by its name and words, for the person at the keyboard."""


@dataclass(frozen=True)
class Obeyed:
    """What a word typed at the table came to: lines to tell the player, the core's
    replies to carry out, and, when the word leaves the table, what to say then."""

    told: tuple[str, ...] = ()
    replies: tuple[Outbound, ...] = ()
    leaving: str | None = None


async def obey(
    _: Translator, text: str, buttons: Sequence[Button], ask: Ask, export_dir: Path
) -> Obeyed | None:
    """Carry out the words both tables take alike (hint, table --png, discard, which
    asks to be confirmed with ``discard yes``, export, history, rules, scores, stats, top,
    review, mydata); ``None`` for any other line, which each table reads its own way
    (quit, help, a move, an empty line, table)."""
    first, *rest = text.split() or [""]
    word = first.lower()
    if word == "hint":
        return Obeyed((your_moves(_, [str(o.press.move) for o in offered_moves(buttons)]),))
    if word == "table" and rest:
        said = await table_picture(rest, lambda: ask("table"), _)
        return Obeyed((said,)) if isinstance(said, str) else Obeyed(replies=tuple(said))
    if word == "discard":
        confirm = f"discard {_('yes')}"
        if [w.lower() for w in rest] not in (["yes"], [_("yes")]):
            # Nothing of the match would be left: it takes a second, deliberate word.
            said = _(
                "This ends the match for good and keeps nothing of it: type %(command)s to do it.",
                command=confirm,
            )
            return Obeyed((said,))
        return Obeyed(replies=tuple(await ask("stop")), leaving=_("The match is discarded."))
    if word == "export":
        folder = Path(" ".join(rest)) if rest else export_dir
        replies = await ask("export")
        told = tuple(export_file(folder, r, _) for r in replies if isinstance(r, Document))
        return Obeyed(told, tuple(r for r in replies if not isinstance(r, Document)))
    if word == "history":
        replies = await ask("history", *rest)
        told = tuple(export_file(export_dir, r, _) for r in replies if isinstance(r, Document))
        return Obeyed(told, tuple(r for r in replies if not isinstance(r, Document)))
    if word in ("rules", "scores", "stats", "top", "review", "mydata"):
        return Obeyed(replies=tuple(await ask(word, *rest)))
    return None


@dataclass(frozen=True)
class Refusal:
    """Why what the player typed is no move, to tell him."""

    text: str


def press_for(_: Translator, text: str, buttons: Sequence[Button]) -> str | Refusal:
    """The payload of the move ``text`` names, by its number among ``buttons`` or
    written out (``6-4@L``); or why it names none."""
    if text.isascii() and text.isdigit():  # "²" is a digit to str.isdigit, not to int
        number = int(text)
        if not 1 <= number <= len(buttons):
            return Refusal(no_choice(_, number, len(buttons)))
        return buttons[number - 1].payload or ""
    try:
        return typed_press(_, text, buttons)
    except NotAMove as exc:
        return Refusal(not_a_move(_, sentence(str(exc))))


def export_file(folder: Path, document: Document, _: Translator | None = None) -> str:
    """Write the replay file into ``folder`` (made if missing); what to tell the player,
    in his language (``_``; English without one)."""
    _ = _ or translator(DEFAULT_LANG)
    path = folder / document.filename
    problem = _write(path, document.data, _)
    return problem or _("The replay file is written: %(path)s", path=str(path))


async def table_picture(
    words: Sequence[str], ask: Callable[[], Awaitable[list[Outbound]]], _: Translator
) -> str | list[Outbound]:
    """``table --png FILE``: the core's picture of the table (``ask`` sends it the
    ``table`` command) written to FILE. What to tell the player; or, when the core
    drew no picture, its replies, which say why."""
    if len(words) != 2 or words[0] != "--png":
        return _("Write table --png FILE to save the table as a picture.")
    replies = await ask()
    # The core sends the asker his picture as a response for him alone.
    pictures = (r.screen.picture for r in replies if isinstance(r, Notice | Response))
    picture = next((p for p in pictures if p is not None), None)
    if picture is None:
        return replies
    path = Path(words[1])
    problem = _write(path, picture, _)
    return problem or _("The table as a picture: %(path)s", path=str(path))


def _write(path: Path, data: bytes, _: Translator) -> str | None:
    """Write ``data`` to ``path``, making its folder; what went wrong, if anything."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    except OSError as exc:
        return _("Could not write %(path)s: %(why)s", path=str(path), why=exc.strerror or exc)
    return None


# -- what both tables say ------------------------------------------------------------


def tables_taken(_: Translator, count: int) -> str:
    return _(
        "Saved matches: %(n)d, as many as the terminal keeps: continue one "
        "(%(command)s) and type discard to end it.",
        n=count,
        command=resume_command(),
    )


def others_saved(_: Translator, count: int) -> str:
    return _(
        "Saved matches wait: %(n)d. %(command)s lists them.", n=count, command=resume_command()
    )


def your_moves(_: Translator, moves: list[str]) -> str:
    if not moves:
        return _("You have no move to make now.")
    return _("Your moves: %(moves)s", moves=", ".join(moves))


def no_choice(_: Translator, number: int, count: int) -> str:
    return _("There is no choice %(number)d: type 1 to %(n)d, or help.", number=number, n=count)


def not_a_move(_: Translator, refusal: str) -> str:
    return _("%(refusal)s Type a number, a move like 6-4@L, or help.", refusal=refusal)


def saved_farewell(_: Translator) -> str:
    return _("The match is saved: %(command)s continues it.", command=resume_command())
