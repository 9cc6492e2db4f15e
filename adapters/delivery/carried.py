"""Waiting for particular mailbox entries to be carried out, not for a mailbox to empty.

A press's other screens wait until the presser's own hand has been shown (see
:meth:`.deliver.Deliverer.first`). Waiting for the hand's mailbox to empty instead let them
wait for ever under load: while a write waits seconds for its turn in the bot-wide budget
(Telegram's thirty a second), the same chat gets newer screens (a screen redrawn by the
catch-up, the next turn's hand), its mailbox never empties, and the table of the press is
never sent.

A watch is taken on the entry now in a mailbox under a key; it ends once the worker has
carried out (or given up on) the entry it then took under that key, a newer screen that
replaced it there included, or when the mailbox is dropped. It ends True when that was
because the platform refused to write to the chat (a private chat the person never opened, or
a bot he blocked).
"""

from __future__ import annotations

import asyncio

Watches = list[asyncio.Future[bool]]


class CarriedWatch:
    """Futures per mailbox and key, ended once the entry under that key is carried."""

    def __init__(self) -> None:
        self._waiting: dict[str, dict[str, Watches]] = {}

    def watch(self, chat: str, key: str) -> asyncio.Future[bool]:
        """A future that ends once the entry now under ``key`` in ``chat``'s mailbox is
        carried out: True if the platform refused to write to the chat."""
        future: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(chat, {}).setdefault(key, []).append(future)
        return future

    def take(self, chat: str, key: str) -> Watches:
        """The watches on the entry a worker takes out of the mailbox to carry it."""
        keys = self._waiting.get(chat, {})
        taken = keys.pop(key, [])
        if not keys:
            self._waiting.pop(chat, None)
        return taken

    def put_back(self, chat: str, key: str, watches: Watches) -> None:
        """The entry went back into the mailbox: its watches wait for the next try."""
        if watches:
            self._waiting.setdefault(chat, {}).setdefault(key, [])[:0] = watches

    @staticmethod
    def end(watches: Watches, refused: bool = False) -> None:
        for future in watches:
            if not future.done():
                future.set_result(refused)

    def end_chat(self, chat: str, refused: bool = False) -> None:
        """The mailbox was emptied or dropped: nothing watched in it is left to wait for."""
        for watches in self._waiting.pop(chat, {}).values():
            self.end(watches, refused)

    def end_all(self) -> None:
        for chat in list(self._waiting):
            self.end_chat(chat)
