"""Every message the bot writes to a group, checked for hand tiles as it arrives.

The fake server shows each call to a :class:`GroupScan` before carrying it out. A
message, an edit, a caption and the labels and payloads of its buttons are read
for tiles, and no tile may be one that a hand holds in the deal the message is
about. Only a deal's summary shows the hands, by the rules, and only once that
deal is over.

Which hands count: within a deal a tile only ever leaves a hand (for the line, a
caravan, the set-aside [6|6]), never comes back, so the hands as stored when the
message arrives are at most those it was drawn from. A table names its deal; one
of a deal that has ended since is checked against that deal's final hands, since
the next deal's hands hold the old line's tiles again.
"""

from __future__ import annotations

import contextlib
import re
from typing import Any

from bot.model import codec
from bot.model.contract import ChatRef
from bot.model.decision import Game
from bot.model.game_state import build_state
from bot.model.gamedoc import GameDoc, from_json
from bot.table.runner import Runner
from engine import State
from tests.adapters.telegram.fakebot import FakeBotApi
from tests.adapters.telegram.fakeworld import Call, button_rows
from tests.adapters.telegram.htmlcheck import HtmlError, plain_text
from tests.adapters.telegram.players import Tile, tile_of, tiles_in

WRITES = {
    "sendMessage",
    "editMessageText",
    "editMessageCaption",
    "editMessageReplyMarkup",
    "sendPhoto",
    "sendDocument",
}
HEADING = re.compile(r"· table ([0-9a-z]{8})$")  # a table's and a summary's first line
DEAL = re.compile(r"Deal (\d+)")  # a table's second line
SUMMARY = re.compile(r"Deal (\d+) is over\.")  # a summary's second line


class GroupScan:
    """Checks the bot's writes to one group (or forum topic) against its games' hands."""

    def __init__(self, fake: FakeBotApi, truth: Runner, chat: ChatRef) -> None:
        self.fake = fake
        self.truth = truth
        self.chat = chat
        self.problems: list[str] = []
        self.checked = 0  # messages checked against the hands of a dealt game
        self.summaries = 0

    async def __call__(self, call: Call) -> None:
        if call.method not in WRITES or call.chat_id != int(self.chat.chat_id):
            return
        if not self._in_topic(call):
            return
        try:
            await self._scan(call)
        except Exception as err:  # a check that breaks must fail the test, not the server
            self.problems.append(f"could not check {call.method} {call.params}: {err!r}")

    def _in_topic(self, call: Call) -> bool:
        """Whether the call writes to this topic. An edit names no topic: its message's
        is read, and an edit of a message the chat no longer has is counted in."""
        thread = call.params.get("message_thread_id")
        if thread is None and "message_id" in call.params:
            edited = self.fake.messages.get((int(self.chat.chat_id), call.params["message_id"]))
            if edited is None:
                return True
            thread = edited.get("message_thread_id")
        return thread == (int(self.chat.thread) if self.chat.thread else None)

    async def _scan(self, call: Call) -> None:
        text = visible_text(call)
        lines = text.splitlines()
        heading = HEADING.search(lines[0]) if lines else None
        second = lines[1] if len(lines) > 1 else ""
        summary = SUMMARY.fullmatch(second) if heading else None
        deal = summary or (DEAL.fullmatch(second) if heading else None)
        doc = await self._doc(heading.group(1) if heading else None)
        if doc is None:
            if heading:
                self.problems.append(f"a message of a game the chat does not have: {text!r}")
            return
        if not doc.deals:
            return  # a lobby: no hand yet
        number = int(deal.group(1)) if deal else len(doc.deals)
        if not 1 <= number <= len(doc.deals):
            self.problems.append(f"a message of deal {number}, never dealt: {text!r}")
            return
        state = state_after_deal(doc, number)
        if summary:
            self.summaries += 1
            if not state.deal_over:
                self.problems.append(f"deal {number}'s hands shown while it runs: {text!r}")
            return
        held = {tile_of(str(tile)) for hand in state.hands for tile in hand}
        shown = tiles_in(text) | tiles_in(" ".join(labels(call))) | tiles_in_payloads(call)
        if shown & held:
            self.problems.append(
                f"{call.method} shows {sorted(shown & held)} from a hand: {text!r} "
                f"buttons {labels(call)}"
            )
        self.checked += 1

    async def _doc(self, game_id: str | None) -> GameDoc | None:
        """The game a message is about: the chat's game, or the last one it had."""
        game: Game | None = await self.truth.load(self.chat)
        if game is not None and game_id in (None, game.doc.id):
            return game.doc
        last = await self.truth.store.last_game(self.chat)
        if last is not None and game_id in (None, last.get("id")):
            return from_json(last)
        return None


def state_after_deal(doc: GameDoc, number: int) -> State[Any]:
    """The game as it stands in deal ``number``: now if it is the current deal, else
    as that deal ended."""
    if number == len(doc.deals):
        return build_state(doc)
    ended = doc.but(deals=doc.deals[:number], moves=doc.moves[: doc.deal_starts[number]])
    return build_state(ended)


def visible_text(call: Call) -> str:
    parts = [str(call.params[k]) for k in ("text", "caption") if k in call.params]
    if call.params.get("parse_mode") == "HTML":
        # Bad HTML is refused by the server; its raw text is read instead.
        with contextlib.suppress(HtmlError):
            parts = [plain_text(part) for part in parts]
    return "\n".join(parts)


def _buttons(call: Call) -> list[dict[str, Any]]:
    return [button for row in button_rows(call.params) for button in row]


def labels(call: Call) -> list[str]:
    return [str(button.get("text", "")) for button in _buttons(call)]


def tiles_in_payloads(call: Call) -> set[Tile]:
    """Tiles named by the move buttons' callback data (no move belongs in a group)."""
    tiles: set[Tile] = set()
    for button in _buttons(call):
        try:
            action = codec.decode(str(button.get("callback_data", "")))
        except codec.BadPayload:
            continue
        if isinstance(action, codec.MovePress):
            move = action.move
            tiles |= {tile_of(str(t)) for t in (move.tile, move.second) if t is not None}
    return tiles
