"""Things that happen to a group rather than in it: it becomes a supergroup, or someone
removes the bot. Each arrives at the bot as an update from the fake server."""

from __future__ import annotations

import time

from tests.adapters.telegram.fakebot import FakeBotApi
from tests.adapters.telegram.fakeworld import FakeUser


def migrate(fake: FakeBotApi, user: FakeUser, old_id: int, new_id: int) -> None:
    """A basic group becomes a supergroup with a new id; both chats announce it."""
    old = fake.groups[old_id]
    fake.add_group(new_id, old.title)
    old.migrated_to = new_id
    for chat_id, field, other in (
        (old_id, "migrate_to_chat_id", new_id),
        (new_id, "migrate_from_chat_id", old_id),
    ):
        message = {
            "message_id": fake.next_message_id(chat_id),
            "date": int(time.time()),
            "chat": fake.chat_json(chat_id),
            "from": user.as_json(),
            field: other,
        }
        fake.push_update({"message": message})


def remove_bot(fake: FakeBotApi, user: FakeUser, chat_id: int, *, tell: bool = True) -> None:
    """A user removes the bot from a group: from then on Telegram refuses every write
    there; ``tell``: the bot is sent the update saying so (it may never come)."""
    fake.kicked.add(chat_id)
    if tell:
        _membership(fake, user, chat_id, "member", "left")


def add_bot(fake: FakeBotApi, user: FakeUser, chat_id: int) -> None:
    """A user adds the bot back to a group it was removed from."""
    fake.kicked.discard(chat_id)
    _membership(fake, user, chat_id, "left", "member")


def _membership(fake: FakeBotApi, user: FakeUser, chat_id: int, old: str, new: str) -> None:
    change = {
        "chat": fake.chat_json(chat_id),
        "from": user.as_json(),
        "date": int(time.time()),
        "old_chat_member": {"user": fake.bot_user(), "status": old},
        "new_chat_member": {"user": fake.bot_user(), "status": new},
    }
    fake.push_update({"my_chat_member": change})
