"""The lobby's screens: the choice of a game, who sits, the options, and the
buttons to change them.

The lobby is shown in the game's TABLE slot, so when the game starts the same
message turns into the table.
"""

from __future__ import annotations

from typing import Final

from bot import ai
from bot.model import codec
from bot.model.contract import Button, Card, Screen, Style, TextLine, isolated
from bot.model.gamedoc import GameDoc, TableSettings
from bot.views.i18n import Translator, text_line
from bot.views.table_screen import game_heading, seat_label
from bot.views.texts import (
    level_name,
    option_label,
    option_value_words,
    players_span,
    variant_title,
)
from engine import BadOption, OptionSpec, all_variants, get_variant
from engine.options import resolve_options
from engine.state import OptionValue

TIMER_STEPS: Final = (0, 30, 60, 120, 300)
PICKER_ROW: Final = 2  # games per row of the game picker
_SMALL_RANGE: Final = 12  # integer options with at most this many values cycle through all


def current_options(doc: GameDoc) -> dict[str, OptionValue]:
    """The options as the game would start with them now (defaults filled in for
    the players seated, at least the smallest table)."""
    variant = get_variant(doc.variant)
    players = max(len(doc.seats), variant.min_players)
    try:
        return dict(resolve_options(variant.option_specs, players, doc.options, variant.name))
    except BadOption:
        return dict(doc.options)


def variant_picker(_: Translator) -> Screen:
    """One button per game; a press opens a table for it, as ``new GAME`` does."""
    games = [
        Button(variant_title(_, v.name), codec.variant_payload(v.name)) for v in all_variants()
    ]
    rows = tuple(tuple(games[i : i + PICKER_ROW]) for i in range(0, len(games), PICKER_ROW))
    return Screen((text_line(_("Which game? Press one to open a table.")),), rows)


def lobby_screen(_: Translator, doc: GameDoc) -> Screen:
    """The lobby, each option in words; as a card, under the game's name alone."""
    lines = _lobby_lines(_, doc)
    body = lines[1:]
    buttons: tuple[tuple[Button, ...], ...] = ()
    if doc.status != "lobby":
        closing = text_line(_("This table was closed."))
    elif doc.panel == "settings":
        closing = text_line(_("Settings: press one to change it (the host)."))
        buttons = settings_buttons(_, doc)
    else:
        closing = None
        buttons = _main_buttons(_, doc)
    extra = [closing] if closing is not None else []
    card = Card(variant_title(_, doc.variant), tuple(body + extra))
    return Screen(tuple(lines + extra), buttons, card=card)


def _option_words(_: Translator, doc: GameDoc) -> list[TextLine]:
    """Each option as a label and its value in words (``Points that end the match:
    101``, ``First tile: any tile``), but one the others leave without effect; the
    names to type are in the game's rules."""
    values = current_options(doc)
    return [
        text_line(
            "• "
            + _(
                "%(option)s: %(value)s",
                option=option_label(_, spec.name),
                value=option_value_words(_, values[spec.name]),
            )
        )
        for spec in get_variant(doc.variant).option_specs
        if spec.name in values and spec.applies(values)
    ]


def _lobby_lines(_: Translator, doc: GameDoc) -> list[TextLine]:
    host = doc.host_seat()
    lines: list[TextLine] = [text_line(game_heading(_, doc))]
    if host is not None and host.user is not None:
        lines.append(text_line(_("Host: %(name)s", name=isolated(host.user.name))))
    span = players_span(_, doc.variant)
    lines.append(
        text_line(_("Players: %(n)d (this game takes %(span)s)", n=len(doc.seats), span=span))
    )
    for number, seat in enumerate(doc.seats):
        name = seat_label(_, doc, number)
        if seat.computer is not None:
            name = _("%(name)s, %(level)s", name=name, level=level_name(_, seat.computer))
        lines.append(text_line(f"{number + 1}. {name}"))
    lines += _option_words(_, doc)
    lines.append(text_line(table_settings_text(_, doc.settings)))
    return lines


def table_settings_text(_: Translator, settings: TableSettings) -> str:
    text = _(
        "Turn timer: %(timer)s · auto-start: %(auto)s · pings: %(pings)s",
        timer=timer_text(_, settings.timer),
        auto=on_off(_, settings.auto_start),
        pings=on_off(_, settings.pings),
    )
    extras = [_("a picture after every move")] if settings.pictures else []
    if settings.pin:
        extras.append(_("the table pinned"))
    return " · ".join([text, *extras])


def timer_text(_: Translator, seconds: int) -> str:
    return _("%(n)d s", n=seconds) if seconds else _("off")


def on_off(_: Translator, value: bool) -> str:
    return _("on") if value else _("off")


def _main_buttons(_: Translator, doc: GameDoc) -> tuple[tuple[Button, ...], ...]:
    host = _host_id(doc)

    def button(label: str, action: str, style: Style = Style.PLAIN) -> Button:
        return Button(label, codec.lobby_payload(doc.id, action, host=host), style=style)

    return (
        (button(_("Join"), "join", Style.PRIMARY), button(_("Leave"), "leave")),
        (button(_("+ Computer"), "add_computer"), button(_("− Computer"), "remove_computer")),
        (button(_("Settings"), "settings"),),
        (button(_("Start"), "start", Style.PRIMARY), button(_("Cancel"), "cancel", Style.DANGER)),
    )


def settings_buttons(_: Translator, doc: GameDoc) -> tuple[tuple[Button, ...], ...]:
    """One button per setting that makes a difference; each names the value it sets
    next."""
    variant = get_variant(doc.variant)
    values = current_options(doc)
    rows: list[tuple[Button, ...]] = []
    for index, spec in enumerate(variant.option_specs):
        step = next_option_value(spec, values.get(spec.name), len(doc.seats))
        if step is None or not spec.applies(values):
            continue
        code, shown = step
        label = _(
            "%(option)s: %(now)s ▸ %(next)s",
            option=option_label(_, spec.name),
            now=option_value_words(_, values.get(spec.name)),
            next=option_value_words(_, shown),
        )
        rows.append((Button(label, codec.setting_payload(doc.id, index, code)),))
    settings = doc.settings
    following = next((s for s in TIMER_STEPS if s > settings.timer), TIMER_STEPS[0])
    rows.append(
        (
            Button(
                _(
                    "Turn timer: %(now)s ▸ %(next)s",
                    now=timer_text(_, settings.timer),
                    next=timer_text(_, following),
                ),
                codec.setting_payload(doc.id, "T", following),
            ),
        )
    )
    rows.append(
        (
            Button(
                _("Auto-start: %(now)s", now=on_off(_, settings.auto_start)),
                codec.setting_payload(doc.id, "A", int(not settings.auto_start)),
            ),
            Button(
                _("Pings: %(now)s", now=on_off(_, settings.pings)),
                codec.setting_payload(doc.id, "P", int(not settings.pings)),
            ),
        )
    )
    rows.append(tuple(computer_button(_, doc, level) for level in ai.levels()))
    rows.append((Button(_("Back"), codec.lobby_payload(doc.id, "back", host=_host_id(doc))),))
    return tuple(rows)


def computer_button(_: Translator, doc: GameDoc, level: str) -> Button:
    """Seat a computer of ``level`` (the main panel's "+ Computer" seats the default one)."""
    label = _("+ Computer: %(level)s", level=level_name(_, level))
    return Button(label, codec.lobby_payload(doc.id, "add_computer", level, _host_id(doc)))


def _host_id(doc: GameDoc) -> str | None:
    host = doc.host_seat()
    return host.user.user_id if host is not None and host.user is not None else None


def next_option_value(
    spec: OptionSpec, current: OptionValue | None, players: int
) -> tuple[int, str] | None:
    """The value a settings button moves ``spec`` to, as (payload code, text);
    ``None`` for options typed as free text, which are set by command only."""
    if spec.choices:
        index = spec.choices.index(str(current)) if current in spec.choices else -1
        following = (index + 1) % len(spec.choices)
        return following, spec.choices[following]
    if not spec.is_int:
        return None
    steps = int_steps(spec, players)
    number = int(current) if isinstance(current, int) else int(spec.default_for(players))
    following_number = next((s for s in steps if s > number), steps[0])
    return following_number, str(following_number)


def int_steps(spec: OptionSpec, players: int) -> list[int]:
    """The values a button cycles through: every value of a small range, else a few
    round ones around the default."""
    assert spec.low is not None and spec.high is not None
    if spec.high - spec.low < _SMALL_RANGE:
        return list(range(spec.low, spec.high + 1))
    default = int(spec.default_for(players))
    wanted = {spec.low, default // 2, default, default * 2, spec.high}
    return sorted(v for v in wanted if spec.low <= v <= spec.high)


def decode_option_value(spec: OptionSpec, code: int) -> OptionValue:
    """The option value a settings button's code stands for."""
    if spec.choices:
        if not 0 <= code < len(spec.choices):
            raise ValueError(f"no choice {code} for {spec.name}")
        return spec.choices[code]
    return code
