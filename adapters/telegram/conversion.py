"""Telegram updates as the core's inbound events, and the core's refs back as Telegram ids.

Nothing here talks to the network: whether the sender is an admin is asked by the
caller and filled in afterwards.
"""

from __future__ import annotations

from dataclasses import dataclass

from telegram import CallbackQuery, Chat, Message, Update, User
from telegram.constants import ChatType

from bot.model.contract import ChatRef, Command, Inbound, Press, PrivateStart, UserRef
from bot.views.catalog import COMMAND_NAMES

PLATFORM = "tg"

# The core's command -> its Telegram name, where they differ. Telegram reserves /start
# for deep links, so the game's start is /startgame; /newgame reads better than /new.
TELEGRAM_NAMES = {name: name for name in COMMAND_NAMES} | {"new": "newgame", "start": "startgame"}
# /new is taken too; /start never is, since Telegram sends it when a group adds the bot.
COMMANDS = {tg: core for core, tg in TELEGRAM_NAMES.items()} | {"new": "new"}


@dataclass(frozen=True, slots=True)
class TypedCommand:
    name: str  # as typed, lower case, without the slash and the bot's name
    args: tuple[str, ...]


def parse_command(text: str, bot_username: str) -> TypedCommand | None:
    """``/name@bot args`` -> the command, or None if it is not one or is for another bot."""
    if not text.startswith("/"):
        return None
    head, *args = text.split()
    name, _, addressee = head[1:].partition("@")
    if addressee and addressee.lower() != bot_username.lower():
        return None
    if not name:
        return None
    return TypedCommand(name.lower(), tuple(args))


def chat_ref(chat: Chat, message: Message | None = None) -> ChatRef:
    """The chat, or the forum topic the message belongs to (each topic has its own table)."""
    thread = None
    if message is not None and message.is_topic_message and message.message_thread_id:
        thread = str(message.message_thread_id)
    return ChatRef(PLATFORM, str(chat.id), thread)


def user_ref(user: User) -> UserRef:
    return UserRef(PLATFORM, str(user.id), user.full_name, user.language_code)


def private_chat(user: UserRef) -> ChatRef:
    """The user's private chat with the bot, where his hand goes."""
    return ChatRef(PLATFORM, user.user_id)


def chat_as_user(chat: Chat) -> UserRef:
    """A chat speaking as itself (an anonymous admin posts as the group)."""
    return UserRef(PLATFORM, str(chat.id), chat.title or chat.effective_name or str(chat.id))


def is_private(chat: Chat) -> bool:
    return chat.type == ChatType.PRIVATE


def speaks_as_chat(message: Message) -> bool:
    """Sent by an anonymous admin of this very group (who counts as an admin)."""
    return message.sender_chat is not None and message.sender_chat.id == message.chat.id


def message_to_inbound(message: Message, bot_username: str) -> Inbound | None:
    """A typed command as an inbound event; None for anything the bot does not take.

    ``is_admin`` is left False except for anonymous admins; the caller asks Telegram.
    """
    typed = parse_command(message.text or "", bot_username)
    if typed is None:
        return None
    if message.sender_chat is not None and not speaks_as_chat(message):
        return None  # a linked channel's post or a user writing as another chat
    private = is_private(message.chat)
    if speaks_as_chat(message):
        user = chat_as_user(message.chat)
    elif message.from_user is not None:
        user = user_ref(message.from_user)
    else:
        return None
    if typed.name == "start" and private:
        # A bare /start (the bot opened from its profile) asks for his tables.
        return PrivateStart(user, typed.args[0] if typed.args else "")
    name = COMMANDS.get(typed.name)
    if name is None:
        return None
    return Command(
        chat_ref(message.chat, message),
        user,
        name,
        typed.args,
        is_admin=speaks_as_chat(message),
        private=private,
        as_chat=speaks_as_chat(message),
        chat_title=message.chat.title,
        message_id=str(message.message_id),
    )


def query_to_press(query: CallbackQuery) -> Press | None:
    """A button press as an inbound event; None for buttons that carry nothing for the core."""
    message = query.message
    if message is None or query.data is None:
        return None
    topic = message if isinstance(message, Message) else None
    chat = message.chat
    return Press(
        chat_ref(chat, topic), user_ref(query.from_user), query.data, chat_title=chat.title
    )


def telegram_chat_id(chat: ChatRef) -> int:
    return int(chat.chat_id)


def telegram_thread_id(chat: ChatRef) -> int | None:
    return int(chat.thread) if chat.thread is not None else None


def described(update: object) -> str:
    """An update for a log line, by its ids alone (no names, no text)."""
    if not isinstance(update, Update):
        return type(update).__name__
    chat, user = update.effective_chat, update.effective_user
    where = f" in {chat.id}" if chat is not None else ""
    who = f" from {user.id}" if user is not None else ""
    return f"update {update.update_id}{who}{where}"
