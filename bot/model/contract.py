"""What flows between the adapters and the core: neutral references, inbound
events, and the outbound instructions an adapter renders.

An adapter turns a platform update into one :data:`Inbound`, awaits
``sessions.handle(inbound)``, and carries out the returned list of
:data:`Outbound` in order. Nothing here names a platform type.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum

from bot.model.events import TableEvent
from bot.model.hand import HandView
from bot.model.table import TableView


@dataclass(frozen=True, slots=True)
class ChatRef:
    """A place where a table lives: a group, a channel, a forum topic or thread.

    ``platform`` is a short tag (``tg``, ``dc``, ``con``); ``thread`` makes a topic or
    thread a chat of its own.
    """

    platform: str
    chat_id: str
    thread: str | None = None

    @property
    def key(self) -> str:
        base = f"{self.platform}:{self.chat_id}"
        return base if self.thread is None else f"{base}:{self.thread}"

    @classmethod
    def from_key(cls, key: str) -> ChatRef:
        platform, chat_id, *rest = key.split(":", 2)
        return cls(platform, chat_id, rest[0] if rest else None)


@dataclass(frozen=True, slots=True)
class UserRef:
    """A person on a platform. ``name`` is what the table shows."""

    platform: str
    user_id: str
    name: str
    lang: str | None = None  # the platform's idea of the user's language, if any

    @property
    def key(self) -> str:
        return f"{self.platform}:{self.user_id}"


# -- inbound --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Command:
    """A typed command: ``name`` is one of new, join, leave, start, stop, cancel,
    scores, stats, rules, lang, settings, help, export, add_computer,
    remove_computer, mydata, forget; ``args`` are the words after it."""

    chat: ChatRef
    user: UserRef
    name: str
    args: tuple[str, ...] = ()
    is_admin: bool = False  # the adapter asks the platform
    private: bool = False  # typed in the private chat with the bot
    # Sent on behalf of the chat itself (an anonymous admin, a channel): ``user`` is
    # then the chat, which may run a table but never sit at one.
    as_chat: bool = False
    # The chat's name as people know it (a group's title, a channel's name), if any:
    # a hand in a private chat names the group it belongs to.
    chat_title: str | None = None
    # The platform's id of the message that carried the command, if it has one: the
    # command's :class:`Response` replies to it.
    message_id: str | None = None


@dataclass(frozen=True, slots=True)
class Press:
    """A button press. ``chat`` is where the button was (a group, or the private
    chat for a hand button); ``payload`` is exactly what the button carried."""

    chat: ChatRef
    user: UserRef
    payload: str
    is_admin: bool = False
    as_chat: bool = False  # sent on behalf of the chat itself, as for :class:`Command`
    chat_title: str | None = None  # the chat's name, as for :class:`Command`


@dataclass(frozen=True, slots=True)
class PrivateStart:
    """The user opened the private chat through a deep link carrying ``payload``."""

    user: UserRef
    payload: str


@dataclass(frozen=True, slots=True)
class Unreachable:
    """The adapter could not deliver ``slot`` to ``user`` (never started the bot,
    or blocked it). The core answers with a deep-link offer in the game's chat."""

    user: UserRef
    slot: Slot


@dataclass(frozen=True, slots=True)
class ChatMoved:
    """The platform gave a chat a new id (a Telegram group that became a
    supergroup): its table, scoreboard and settings move to ``new``."""

    old: ChatRef
    new: ChatRef


@dataclass(frozen=True, slots=True)
class NotReached:
    """What the core sent ``user`` alone from ``chat`` (a :class:`Response` with ``to``)
    could not reach him: the platform would not write to him privately (he never opened
    that chat, or blocked the bot). It counts as not sent, so asking again sends it."""

    chat: ChatRef
    user: UserRef


Inbound = Command | Press | PrivateStart | Unreachable | ChatMoved | NotReached


# -- screens ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Mention:
    """A reference to a user inside a text line; the adapter renders it."""

    user: UserRef


@dataclass(frozen=True, slots=True)
class Deadline:
    """A moment (Unix seconds) the adapter shows as time left or a relative time."""

    at: float


@dataclass(frozen=True, slots=True)
class CommandRef:
    """A command named inside a text line (``new`` with ``args`` ``tyaga``); the
    adapter writes it as people type it on its platform (``/newgame tyaga``,
    ``/domino new tyaga``). ``name`` is the core's command name; ``usage``: ``args``
    describes what may follow (help's ``GAME [key=value …]``), and a platform with
    typed command options may show those instead."""

    name: str
    args: str = ""
    usage: bool = False


Segment = str | Mention | Deadline | CommandRef
TextLine = tuple[Segment, ...]


class Style(str, Enum):
    PLAIN = "plain"
    PRIMARY = "primary"  # a playable tile, the main action
    DANGER = "danger"


@dataclass(frozen=True, slots=True)
class Button:
    """A button. Exactly one of ``payload`` (a press comes back to the core),
    ``deep_link`` (open the private chat with this start payload), ``url``, or ``web``
    (open the web table with this signed pass, :mod:`bot.model.web_pass`: the adapter
    knows the table's address and how its platform opens it)."""

    label: str
    payload: str | None = None
    deep_link: str | None = None
    url: str | None = None
    web: str | None = None
    style: Style = Style.PLAIN
    enabled: bool = True


@dataclass(frozen=True, slots=True)
class CardField:
    """One labelled part of a card: a player and his tiles and points."""

    name: str
    value: TextLine


@dataclass(frozen=True, slots=True)
class Card:
    """The same screen laid out in parts, for a platform that shows cards (Discord's
    embeds): a title that names no internal id, the body, the line of tiles as text,
    one field per player, the last moves (oldest first) and the closing lines (how
    the deal ended, whose turn)."""

    title: str
    body: tuple[TextLine, ...] = ()
    tiles: str = ""
    fields: tuple[CardField, ...] = ()
    closing: tuple[TextLine, ...] = ()
    moves: tuple[TextLine, ...] = ()


@dataclass(frozen=True, slots=True)
class Screen:
    """A message's content: lines of text and rows of buttons, perhaps a picture
    (PNG bytes), which the message then shows with the text as its caption, and
    perhaps the same content laid out as a :class:`Card` (an adapter may show either)."""

    lines: tuple[TextLine, ...]
    buttons: tuple[tuple[Button, ...], ...] = ()
    picture: bytes | None = field(default=None, repr=False)
    card: Card | None = None

    def plain_text(self) -> str:
        """The text with mentions as names, deadlines as epoch seconds and commands as
        their bare words (logs, tests, and where no platform form is known)."""
        return "\n".join("".join(segment_text(s) for s in line) for line in self.lines)


def command_words(command: CommandRef) -> str:
    """A command as bare words (``new tyaga``)."""
    return f"{command.name} {command.args}" if command.args else command.name


def isolated(name: str) -> str:
    """A person's name as a line of text shows it: inside Unicode's first strong isolate
    (U+2068 … U+2069), so that a name written right to left cannot reorder the rest of
    its line (``Anna 12, <name> 7`` reading as if the numbers were swapped), nor an
    unbalanced direction mark inside a name leak out of it."""
    return f"\N{FIRST STRONG ISOLATE}{name}\N{POP DIRECTIONAL ISOLATE}"


def segment_text(
    segment: Segment,
    deadline: Callable[[float], str] = lambda at: f"<{int(at)}>",
    command: Callable[[CommandRef], str] = command_words,
) -> str:
    """A segment as plain text: a mention as the user's name (isolated), a deadline and a
    command as the caller writes them (by default epoch seconds and bare words)."""
    if isinstance(segment, Mention):
        return isolated(segment.user.name)
    if isinstance(segment, Deadline):
        return deadline(segment.at)
    if isinstance(segment, CommandRef):
        return command(segment)
    return segment


# -- outbound ---------------------------------------------------------------------


class SlotKind(str, Enum):
    LOBBY = "lobby"  # the lobby message in the group (becomes the table at the start)
    TABLE = "table"  # the table message in the group
    HAND = "hand"  # a player's hand, in his private chat (Discord: ephemeral)
    PING = "ping"  # the your-turn nudge, deleted when the player has moved
    PICTURE = "picture"  # the table as a picture, edited in place after every move


@dataclass(frozen=True, slots=True)
class Slot:
    """Where a screen goes. ``key`` is stable, so an adapter edits the message it
    sent for this slot before instead of sending a new one."""

    kind: SlotKind
    chat: ChatRef  # for HAND and PING on Telegram: the user's private chat
    game_id: str | None = None
    user: UserRef | None = None  # the owner of a HAND or the target of a PING
    table: ChatRef | None = field(default=None, compare=False)  # the game's chat

    @property
    def key(self) -> str:
        parts = [self.kind.value, self.chat.key, self.game_id or "-"]
        if self.user is not None:
            parts.append(self.user.key)
        return "|".join(parts)


@dataclass(frozen=True, slots=True)
class Show:
    """Show ``screen`` in ``slot``: edit the slot's message, or send one.
    ``version`` rises with the game; an adapter never lets an older version
    overwrite a newer one."""

    slot: Slot
    screen: Screen
    version: int = 0
    notify: bool = False  # a new message that should notify (pings)
    # Post the screen anew at the bottom of the chat and remove the slot's older
    # message (the table at the start of each deal, so it stays at hand).
    renew: bool = False
    # Pin the message posted anew, where the platform lets the bot (the chat's setting).
    pin: bool = False
    # The model the screen was drawn from, for a platform that draws it itself (see
    # :meth:`bot.table.sessions.Sessions.draws_tables`): a table's, with the events since
    # the version its slot showed last or since the deal began, and a hand's.
    table: TableView | None = field(default=None, repr=False)
    events: tuple[TableEvent, ...] = field(default=(), repr=False)
    hand: HandView | None = field(default=None, repr=False)


@dataclass(frozen=True, slots=True)
class Delete:
    """The slot's message goes. ``version``: the state that removed it, so that a screen of
    the slot drawn before it (a turn ping on its way while its player moved) is not shown
    after."""

    slot: Slot
    version: int | None = None


@dataclass(frozen=True, slots=True)
class Answer:
    """The answer to a :class:`Press`, for the presser only. Every press gets
    exactly one, first in the list. ``alert`` asks for a dialog, not a toast.

    ``unreachable``: where the press sends the presser something for him alone
    (:attr:`Response.to`) and the platform sends that to his private chat with the bot,
    the answer to give instead should it not let the bot write to him there (he never
    opened that chat, or blocked the bot)."""

    text: str = ""
    alert: bool = False
    screen: Screen | None = None  # Discord: an ephemeral reply with buttons
    unreachable: Answer | None = None


@dataclass(frozen=True, slots=True)
class Notice:
    """A one-off message in a chat (the table's chat or a private chat).

    ``unreachable``: for a person's private chat, what to show instead where he asked,
    should the platform not let the bot write to him there (he never opened that chat,
    or blocked the bot); the notice itself is then never shown anywhere else."""

    chat: ChatRef
    screen: Screen
    unreachable: Response | None = None


@dataclass(frozen=True, slots=True)
class Response:
    """The answer to a :class:`Command` (or to a button that asks for a lookup): a
    new message in ``chat``, replying to the command's message ``reply_to`` when
    there is one. Responses are never merged or replaced by later ones; ``topic``
    (the command's name) lets an adapter tidy away its own older response on the
    same topic once people have had time to read it. ``public``: the whole chat
    should see it (a scoreboard), where a platform could show a reply to the asker
    alone (a refusal, a confirmation). ``to``: for this person alone, whatever the
    platform (a picture of the table asked for on demand): one that can show a reply
    to one person in ``chat`` shows it so (Discord: ephemeral), one that cannot sends
    it to his private chat with the bot (Telegram), never into ``chat``."""

    chat: ChatRef
    screen: Screen
    reply_to: str | None = None
    topic: str = ""
    public: bool = False
    to: UserRef | None = None


@dataclass(frozen=True, slots=True)
class Document:
    """A file to send (``export``)."""

    chat: ChatRef
    filename: str
    data: bytes = field(repr=False)
    caption: str = ""


Outbound = Show | Delete | Answer | Notice | Response | Document
