"""Screens as Discord messages: text, mentions, deadlines, and button layout."""

from __future__ import annotations

from dataclasses import replace

import discord
import pytest

from adapters.discord.components import CUSTOM_ID_LIMIT, ButtonKind, make_custom_id, parse_custom_id
from adapters.discord.render import fit_rows, render
from bot.model.contract import (
    Button,
    Card,
    CardField,
    ChatRef,
    CommandRef,
    Deadline,
    Mention,
    Screen,
    Style,
    UserRef,
)
from bot.model.gamedoc import RUNNING, GameDoc, Seat, TableSettings
from bot.model.parts import OpenEnd
from bot.model.table import table_view
from bot.views.hand import hand_screen
from bot.views.i18n import translator
from engine import DOUBLE_SIX, DRAW, Move, new_match, public_view, view
from tests.bot.hand_models import hand_model

ALICE = UserRef("dc", "42", "Alice")


def tile(label: str, playable: bool) -> Button:
    style = Style.PRIMARY if playable else Style.PLAIN
    return Button(label, payload=f"1m_abcdefgh_0_p{label}", style=style, enabled=playable)


def components(rendered_view: discord.ui.View | None) -> list[dict[str, object]]:
    assert rendered_view is not None
    return [c for row in rendered_view.to_components() for c in row["components"]]


def test_a_mention_pings_by_id_and_a_deadline_is_a_relative_timestamp() -> None:
    screen = Screen((("Your turn, ", Mention(ALICE), " — ends ", Deadline(1_700_000_000.7)),))
    assert render(screen).content == "Your turn, <@42> — ends <t:1700000000:R>"


def test_tile_notation_is_escaped_so_it_never_becomes_markdown() -> None:
    screen = Screen((("[6|6] *double* ||spoiler|| _x_",),))
    text = render(screen).content
    assert "\\|\\|" in text and "\\*double\\*" in text and "\\_x\\_" in text


def test_a_table_edit_pings_nobody_and_a_ping_pings_only_users() -> None:
    screen = Screen(((Mention(ALICE), " @everyone"),))
    quiet, loud = render(screen), render(screen, notify=True)
    assert quiet.allowed_mentions.to_dict()["parse"] == []
    assert loud.allowed_mentions.users is True
    assert loud.allowed_mentions.everyone is False and loud.allowed_mentions.roles is False


def test_a_long_screen_moves_into_an_embed() -> None:
    screen = Screen(tuple((f"line {n} " + "x" * 60,) for n in range(60)))
    rendered = render(screen)
    assert rendered.content == ""
    assert rendered.embeds and len(rendered.embeds[0].description or "") <= 4096


def test_playable_tiles_are_green_and_enabled_the_rest_grey_and_disabled() -> None:
    screen = Screen((("hand",),), ((tile("6-4", True), tile("5-5", False)),))
    playable, blocked = components(render(screen).view)
    assert playable["style"] == discord.ButtonStyle.success.value and not playable["disabled"]
    assert blocked["style"] == discord.ButtonStyle.secondary.value and blocked["disabled"]


def test_a_row_longer_than_five_wraps() -> None:
    row = tuple(tile(f"{n}-0", True) for n in range(7))
    rows, left_out = _fit_buttons((row,))
    assert [len(r) for r in rows] == [5, 2] and left_out == []


def test_a_hand_too_big_for_25_buttons_keeps_playable_tiles_and_lists_the_rest() -> None:
    tiles = [tile(f"{a}-{b}", (a + b) % 3 == 0) for a in range(7) for b in range(a + 1)][:26]
    actions = (Button("Draw", payload="1m_abcdefgh_0_w"),)
    rows = tuple(tuple(tiles[i : i + 7]) for i in range(0, len(tiles), 7)) + (actions,)
    fitted, left_out = _fit_buttons(rows)
    kept = [b for r in fitted for b in r]
    assert len(fitted) <= 5 and all(len(r) <= 5 for r in fitted)
    assert all(b.enabled for b in kept)
    assert fitted[-1] == [actions[0]]
    assert {b.label for b in left_out} == {b.label for b in tiles if not b.enabled}
    text = render(Screen((("hand",),), rows)).content
    assert all(b.label in text for b in left_out)


def test_custom_ids_carry_the_payload_and_read_back() -> None:
    payload = "1m_k3j9x2ab_1f_pkR"
    custom_id = make_custom_id(ButtonKind.PRESS, payload)
    parsed = parse_custom_id(custom_id)
    assert parsed is not None and parsed.payload == payload and parsed.kind is ButtonKind.PRESS
    assert parse_custom_id("someone-else:thing") is None


def test_equal_payloads_in_one_message_get_distinct_custom_ids() -> None:
    same = Button("?", payload="1t_abcdefgh")
    ids = [c["custom_id"] for c in components(render(Screen((), ((same, same),))).view)]
    assert len(set(ids)) == 2
    assert {parse_custom_id(str(i)).payload for i in ids} == {"1t_abcdefgh"}  # type: ignore[union-attr]


def test_a_custom_id_never_exceeds_100_characters() -> None:
    longest = make_custom_id(ButtonKind.START, "x" * (CUSTOM_ID_LIMIT - 3), repeat=1)
    assert len(longest) == CUSTOM_ID_LIMIT
    with pytest.raises(ValueError):
        make_custom_id(ButtonKind.PRESS, "x" * CUSTOM_ID_LIMIT)


def test_a_link_button_opens_its_url() -> None:
    screen = Screen((), ((Button("Rules", url="https://example.org/rules"),),))
    (link,) = components(render(screen).view)
    assert link["url"] == "https://example.org/rules" and "custom_id" not in link


def test_many_short_rows_are_packed_together_keeping_the_last_row_apart() -> None:
    rows = tuple((Button(f"setting {n}", payload=f"1o_abcdefgh_{n}_1"),) for n in range(7))
    back = (Button("Back", payload="1b_abcdefgh"),)
    fitted, left_out = _fit_buttons((*rows, back))
    assert left_out == [] and len(fitted) <= 5
    assert [b.label for r in fitted for b in r] == [f"setting {n}" for n in range(7)] + ["Back"]
    assert fitted[-1] == [back[0]]


def test_a_command_is_written_as_the_subcommand_to_type() -> None:
    screen = Screen((("Open one with ", CommandRef("new", "tyaga"), "."),))
    assert render(screen).content == "Open one with `/domino new tyaga`."


def test_a_big_hand_from_the_core_fits_discord_and_lists_the_other_tiles_as_text() -> None:
    state = new_match("tyaga", 2, seed=1)
    hand = tuple(t for t in DOUBLE_SIX if t.lo != 0)  # 21 tiles, six of them sixes
    legal = tuple(Move.play(t, end) for t in hand if 6 in (t.hi, t.lo) for end in ("L", "R"))
    seen = replace(view(state, 0), hand=hand, legal=(*legal, DRAW), ends=(6, 6), turn=0, seat=0)
    doc = GameDoc(
        id="abcdefgh",
        chat=ChatRef("dc", "7"),
        status=RUNNING,
        variant="tyaga",
        options={},
        seed=1,
        seats=(Seat(user=ALICE), Seat(computer="greedy")),
        host=ALICE.key,
        settings=TableSettings(60, False, True, "en"),
        created=0.0,
        deals=(state.dealt,),
        deal_starts=(0,),
    )
    sixes = tuple(OpenEnd(side=side, shows=(6,), accepts=(6,)) for side in ("L", "R"))
    table = table_view(doc, public_view(state)).model_copy(update={"ends": sixes})
    screen = hand_screen(translator("en"), doc, hand_model(seen), table, None)
    rendered = render(screen)
    assert rendered.view is not None
    rows = rendered.view.to_components()
    shown = components(rendered.view)
    assert len(rows) <= 5 and len(shown) <= 25
    playable = [b for row in screen.buttons for b in row if b.enabled]
    assert [c["label"] for c in shown] == [b.label for b in playable]
    other_tiles = [b.label for row in screen.buttons for b in row if not b.enabled]
    assert len(other_tiles) == 15
    (embed,) = rendered.embeds
    assert discord.utils.escape_markdown(" ".join(other_tiles)) in (embed.description or "")
    assert embed.title == "Tyaga (Draw)" and "abcdefgh" not in str(embed.to_dict())


def test_a_card_is_an_embed_with_its_line_as_code_and_its_deadline_relative() -> None:
    alice = UserRef("dc", "42", "Alice")
    card = Card(
        "Tyaga (Draw)",
        (("Deal 1",),),
        "[6|6][6|2]",
        (
            CardField("▶ Alice", ("6 tiles · 0 points",)),
            CardField("• Bob", ("7 tiles · 0 points",)),
        ),
        ((Mention(alice), " to move"), ("Time runs out ", Deadline(1_800_000_123.9))),
    )
    screen = Screen((("Tyaga (Draw) · table abcdefgh",),), card=card)
    (embed,) = render(screen).embeds
    assert embed.title == "Tyaga (Draw)"
    assert "```\n[6|6][6|2]\n```" in (embed.description or "")
    assert "<@42> to move" in (embed.description or "")
    assert "<t:1800000123:R>" in (embed.description or "")
    assert [(f.name, f.value) for f in embed.fields] == [
        ("▶ Alice", "6 tiles · 0 points"),
        ("• Bob", "7 tiles · 0 points"),
    ]
    assert "abcdefgh" not in str(embed.to_dict())


def _fit_buttons(rows: tuple[tuple[Button, ...], ...]) -> tuple[list[list[Button]], list[Button]]:
    """:func:`fit_rows` of rows that fit as buttons, none turned into a menu."""
    fitted, left_out = fit_rows(rows)
    buttons = [r for r in fitted if isinstance(r, list)]
    assert len(buttons) == len(fitted), "a row became a menu"
    return buttons, left_out
