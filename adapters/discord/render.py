"""Screens to Discord messages: text to content (or an embed when long), button rows
to a view of at most five rows of five.

Mentions become ``<@id>``, deadlines relative timestamps (``<t:…:R>``), commands the
subcommand to type, as code (``/domino new tyaga``), and plain text is escaped, so tile
notation never turns into markdown. When buttons do not fit, the disabled ones (tiles
that cannot be played) leave the view and are listed as text, and moves beyond what
buttons can hold go into select menus.
"""

from __future__ import annotations

import io
import re
import unicodedata
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import discord

from adapters.discord.commands import GROUP_NAME, usage_text
from adapters.discord.components import ButtonKind, GameItem, make_custom_id
from bot.model.contract import (
    Button,
    Card,
    CommandRef,
    Deadline,
    Mention,
    Screen,
    Segment,
    Style,
    isolated,
)

PLATFORM = "dc"
MAX_ROWS = 5
MAX_PER_ROW = 5
CONTENT_LIMIT = 2000
EMBED_LIMIT = 4096
LABEL_LIMIT = 80
TITLE_LIMIT = 256  # an embed's title and a field's name
FIELD_LIMIT = 1024  # a field's value
FIELD_COUNT = 25  # fields in an embed
CARD_COLOUR = discord.Colour.dark_green()
MENU_LIMIT = 25  # options in a select menu
PICTURE_NAME = "table.png"

_STYLES = {
    Style.PLAIN: discord.ButtonStyle.secondary,
    Style.PRIMARY: discord.ButtonStyle.success,
    Style.DANGER: discord.ButtonStyle.danger,
}


@dataclass(slots=True)
class Rendered:
    """What to send for a screen: pass ``content``, ``embeds``, ``view`` and
    ``allowed_mentions`` to any discord.py send or edit call."""

    content: str
    embeds: list[discord.Embed] = field(default_factory=list)
    view: discord.ui.View | None = None
    allowed_mentions: discord.AllowedMentions = field(default_factory=discord.AllowedMentions.none)
    picture: bytes | None = None  # attached, and shown as the embed's image

    def edit_kwargs(self) -> dict[str, Any]:
        """Keyword arguments for an edit: an empty view clears old buttons, and a
        picture replaces the message's attachments."""
        kwargs = {
            "content": self.content,
            "embeds": self.embeds,
            "view": self.view if self.view is not None else discord.ui.View(timeout=None),
            "allowed_mentions": self.allowed_mentions,
        }
        if self.picture is not None:
            kwargs["attachments"] = [self.picture_file()]
        return kwargs

    def send_kwargs(self) -> dict[str, Any]:
        """Keyword arguments for a new message."""
        kwargs: dict[str, Any] = {
            "content": self.content or None,
            "embeds": self.embeds,
            "allowed_mentions": self.allowed_mentions,
        }
        if self.view is not None:
            kwargs["view"] = self.view
        if self.picture is not None:
            kwargs["files"] = [self.picture_file()]
        return kwargs

    def picture_file(self) -> discord.File:
        """The picture as an upload; a new one for every call, as an upload is read once."""
        assert self.picture is not None
        return discord.File(io.BytesIO(self.picture), filename=PICTURE_NAME)


def render(screen: Screen, *, notify: bool = False, header: str = "") -> Rendered:
    """Render ``screen``; ``notify`` lets its mentions ping, ``header`` is a line
    put above it (an answer's text shown with a hand). A screen with a card is shown
    as an embed, with the header as the message's text."""
    buttons = screen.buttons if screen.card is None else _without_deep_links(screen.buttons)
    # A pass to the web table is made a link where the core's screens come in (see
    # adapters.discord.web_links); one left over has nowhere to lead.
    if any(b.web is not None for row in buttons for b in row):
        kept = (tuple(b for b in row if b.web is None) for row in buttons)
        buttons = tuple(row for row in kept if row)
    rows, left_out = fit_rows(buttons)
    listed = " ".join(escape(b.label) for b in left_out)
    # Only a ping notifies, and only the users it mentions; edits never notify anyway.
    mentions = discord.AllowedMentions(everyone=False, roles=False, users=notify)
    if screen.card is not None:
        content = escape(header)
        rendered = Rendered(content, [card_embed(screen.card, listed)], build_view(rows), mentions)
    else:
        lines = [render_line(line) for line in screen.lines]
        if header:
            lines.insert(0, escape(header))
        if listed:
            lines.append(listed)
        text = "\n".join(lines)
        rendered = Rendered(content=text, view=build_view(rows), allowed_mentions=mentions)
        if len(text) > CONTENT_LIMIT:
            rendered.content = ""
            rendered.embeds = [discord.Embed(description=_shorten(text, EMBED_LIMIT))]
    if screen.picture is not None:
        # The picture shows as the image of an embed, below the text.
        embed = rendered.embeds[0] if rendered.embeds else discord.Embed()
        embed.set_image(url=f"attachment://{PICTURE_NAME}")
        rendered.embeds, rendered.picture = [embed], screen.picture
    return rendered


def card_embed(card: Card, listed: str = "") -> discord.Embed:
    """A card as an embed: the title, the body, the line of tiles in a code block,
    the last moves and the closing lines (mentions and relative times work there), a
    field per player."""
    parts = ["\n".join(render_line(line) for line in card.body)]
    if card.tiles:
        parts.append(f"```\n{card.tiles}\n```")
    parts.append("\n".join(render_line(line) for line in card.moves + card.closing))
    parts.append(listed)
    description = "\n".join(part for part in parts if part)
    embed = discord.Embed(
        title=_shorten(card.title, TITLE_LIMIT),
        description=_shorten(description, EMBED_LIMIT),
        colour=CARD_COLOUR,
    )
    for player in card.fields[:FIELD_COUNT]:
        embed.add_field(
            name=_shorten(escape(player.name), TITLE_LIMIT),
            value=_shorten(render_line(player.value), FIELD_LIMIT) or "\u200b",
            inline=True,
        )
    return embed


def _without_deep_links(
    rows: Sequence[Sequence[Button]],
) -> tuple[tuple[Button, ...], ...]:
    """A card's rows without buttons that open the private chat: on Discord the hand
    opens as an ephemeral reply to the card's own My tiles button, so a second button
    doing the same would only be one more choice to puzzle over."""
    kept = (tuple(b for b in row if b.deep_link is None) for row in rows)
    return tuple(row for row in kept if row)


def render_text(text: str) -> Rendered:
    """A plain message with no buttons (an answer's text)."""
    return Rendered(content=_shorten(escape(text), CONTENT_LIMIT))


def render_line(line: Sequence[Segment]) -> str:
    return "".join(render_segment(segment) for segment in line)


def render_segment(segment: Segment) -> str:
    if isinstance(segment, Mention):
        if segment.user.platform == PLATFORM and segment.user.user_id.isdigit():
            return f"<@{segment.user.user_id}>"  # Discord draws the name in a mention of its own
        return escape(isolated(segment.user.name))
    if isinstance(segment, Deadline):
        return f"<t:{int(segment.at)}:R>"
    if isinstance(segment, CommandRef):
        return f"`{command_text(segment)}`"
    return escape(segment)


def command_text(command: CommandRef) -> str:
    """A command as typed here: a subcommand of the bot's group (``/domino new tyaga``);
    a command's usage as Discord offers its options (``/domino new variant:…``)."""
    if command.usage:
        return usage_text(command.name)
    words = [f"/{GROUP_NAME}", command.name, command.args.replace("`", "'")]
    return " ".join(word for word in words if word)


@dataclass(frozen=True, slots=True)
class Menu:
    """A select menu in place of a row: its options are the buttons that did not fit."""

    choices: tuple[Button, ...]


Row = list[Button] | Menu


def fit_rows(
    rows: Sequence[Sequence[Button]],
) -> tuple[list[Row], list[Button]]:
    """Lay buttons out in at most five rows of five.

    Rows longer than five wrap. If that makes too many rows, disabled buttons are
    left out (returned second, to be listed as text) and what remains is packed
    tightly. If it still does not fit, the last row (the actions) is kept, as many
    buttons as leave room go first, and the rest become select menus of up to 25
    choices each, so every choice stays one click away.
    """
    wrapped: list[Row] = [chunk for row in rows for chunk in _chunks(list(row))]
    if len(wrapped) <= MAX_ROWS:
        return wrapped, []
    left_out = [b for row in rows for b in row if not b.enabled]
    kept_rows = [[b for b in row if b.enabled] for row in rows]
    kept_rows = [row for row in kept_rows if row]
    wrapped = [chunk for row in kept_rows for chunk in _chunks(row)]
    if len(wrapped) <= MAX_ROWS:
        return wrapped, left_out
    last = kept_rows[-1][:MAX_PER_ROW] if len(kept_rows) > 1 else []
    others = [b for row in (kept_rows[:-1] if last else kept_rows) for b in row]
    free_rows = MAX_ROWS - (1 if last else 0)
    menus = 1
    while menus < free_rows and MAX_PER_ROW * (free_rows - menus) + MENU_LIMIT * menus < len(
        others
    ):
        menus += 1
    as_buttons = MAX_PER_ROW * (free_rows - menus)
    in_menus = others[as_buttons : as_buttons + MENU_LIMIT * menus]
    left_out += others[as_buttons + MENU_LIMIT * menus :]
    packed: list[Row] = list(_chunks(others[:as_buttons]))
    packed += [
        Menu(tuple(in_menus[i : i + MENU_LIMIT])) for i in range(0, len(in_menus), MENU_LIMIT)
    ]
    if last:
        packed.append(last)
    return packed, left_out


def build_view(rows: Sequence[Row]) -> discord.ui.View | None:
    """A view that never times out, made only of dynamic items and links."""
    if not rows:
        return None
    view = discord.ui.View(timeout=None)
    seen: dict[str, int] = {}
    for index, row in enumerate(rows):
        if isinstance(row, Menu):
            view.add_item(_build_menu(row, index, seen))
            continue
        for button in row:
            view.add_item(_build_item(button, index, seen))
    return view


def _build_menu(menu: Menu, row: int, seen: dict[str, int]) -> discord.ui.Item[Any]:
    base = make_custom_id(ButtonKind.MENU, "")
    seen[base] = seen.get(base, 0) + 1
    options: dict[str, discord.SelectOption] = {}
    for button in menu.choices:
        if button.payload is not None and button.payload not in options:
            label = _shorten(button.label or "\u200b", LABEL_LIMIT)
            options[button.payload] = discord.SelectOption(label=label, value=button.payload)
    inner: discord.ui.Select[Any] = discord.ui.Select(
        custom_id=make_custom_id(ButtonKind.MENU, "", seen[base]),
        placeholder=f"+{len(options)} …",
        options=list(options.values()),
        row=row,
    )
    return GameItem(inner, row=row)


def _build_item(button: Button, row: int, seen: dict[str, int]) -> discord.ui.Item[Any]:
    label = _shorten(button.label or "\u200b", LABEL_LIMIT)
    style = _STYLES[button.style]
    if button.url is not None:
        return discord.ui.Button(label=label, url=button.url, row=row, disabled=not button.enabled)
    if not button.enabled:
        # Nobody can press it: its payload would only make equal screens differ.
        kind, payload = ButtonKind.INERT, ""
    elif button.payload is not None:
        kind, payload = ButtonKind.PRESS, button.payload
    elif button.deep_link is not None:
        kind, payload = ButtonKind.START, button.deep_link
    else:
        kind, payload = ButtonKind.INERT, ""
    base = make_custom_id(kind, payload)
    seen[base] = seen.get(base, 0) + 1
    custom_id = make_custom_id(kind, payload, seen[base])
    disabled = not button.enabled or kind is ButtonKind.INERT
    inner: discord.ui.Button[Any] = discord.ui.Button(
        label=label, style=style, custom_id=custom_id, disabled=disabled, row=row
    )
    return GameItem(inner, row=row)


def _chunks(row: list[Button]) -> Iterator[list[Button]]:
    for start in range(0, len(row), MAX_PER_ROW):
        yield row[start : start + MAX_PER_ROW]


# The start of what Discord would show as something else than its text: a user's,
# role's or channel's mention, a custom emoji, a timestamp, a command's mention.
_TAG_START = re.compile(r"<(?=[@#:/]|a:|t:)")
_EVERYONE = re.compile(r"@(everyone|here)")
# What cannot begin a cut-off text: it belongs to the character before it.
_JOINING = frozenset("\u200d\ufe0e\ufe0f")


def escape(text: str) -> str:
    """``text`` shown as written: its markdown, and anything shaped like a mention
    (``<@1004>``, ``@everyone``), escaped."""
    escaped = _TAG_START.sub(r"\\<", discord.utils.escape_markdown(text))
    return _EVERYONE.sub("@\u200b\\1", escaped)


def _shorten(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters with an ellipsis, on whole characters: not
    between a character and its accents or emoji modifiers, nor inside an escape."""
    if len(text) <= limit:
        return text
    end = limit - 1
    while end > 0 and _belongs_to_previous(text[end]):
        end -= 1
    cut = text[:end]
    if (len(cut) - len(cut.rstrip("\\"))) % 2:
        cut = cut[:-1]  # a lone backslash would escape the ellipsis
    return cut + "…"


def _belongs_to_previous(char: str) -> bool:
    return (
        char in _JOINING
        or unicodedata.combining(char) > 0
        or "\U0001f3fb" <= char <= "\U0001f3ff"  # skin tones
        or "\U000e0020" <= char <= "\U000e007f"  # the tags of a flag
    )
