"""What the terminal's boards say of its one player: his rating as the match's end
and stats give it, his results, and the names on the boards, in the language of the
session that shows them."""

from __future__ import annotations

import re

from adapters.console import TableRequest
from bot.views.i18n import translator
from bot.views.texts import computer_name
from tests.adapters.console.terminal import Terminal, always

QUICK = TableRequest("tyaga", level="greedy", options=("target=10",))


async def test_stats_give_the_rating_the_match_ended_with(terminal: Terminal) -> None:
    _, ended = await terminal.play(always("1"), QUICK)
    (now,) = re.findall(r"Ratings: \u2068You\u2069 [-+]\d+\.\d \(now (-?\d+\.\d)\)", ended)
    _, asked = await terminal.play(["stats", "quit"], QUICK)
    assert f"Tyaga (Draw): rating {now} (" in asked


async def test_stats_are_said_to_the_player_and_name_his_place(terminal: Terminal) -> None:
    _, ended = await terminal.play(always("1"), QUICK)
    place = 1 if "You won" in ended else 2
    _, asked = await terminal.play(["stats", "quit"], QUICK)
    assert "Your results in every chat:" in asked
    assert "Results of You" not in asked
    assert re.search(rf"Last results: place {place} of 2 \([-+]\d+\.\d\)", asked)


async def test_scores_alone_show_the_tables_own_game(terminal: Terminal) -> None:
    await terminal.play(always("1"), QUICK)  # a Tyaga board, and none yet of Kozel
    _, transcript = await terminal.play(["scores", "quit"], TableRequest("kozel", players=3))
    asked = transcript.split("You> scores")[1]
    assert "Scoreboard: Kozel (the goat)" in asked
    assert "Tyaga" not in asked


async def test_the_boards_name_the_player_and_computers_in_the_sessions_language(
    terminal: Terminal,
) -> None:
    await terminal.play(
        always("1"), TableRequest("tyaga", level="greedy", lang="ru", options=QUICK.options)
    )
    _, transcript = await terminal.play(["top", "scores", "quit"], QUICK)
    asked = transcript.split("You> top")[1]
    assert "• \u2068You\u2069 " in asked and "1. \u2068You\u2069: " in asked
    assert f"• {computer_name(translator('en'), 'greedy')} " in asked
    assert not re.search("[А-Яа-я]", asked), asked


async def test_history_names_the_player_and_computers_in_the_sessions_language(
    terminal: Terminal,
) -> None:
    await terminal.play(
        always("1"), TableRequest("tyaga", level="greedy", lang="ru", options=QUICK.options)
    )
    _, transcript = await terminal.play(["history", "quit"], QUICK)
    listed = " ".join(transcript.split("You> history")[1].split("You> quit")[0].split())
    assert re.search(
        r" · \u2068You\u2069 \d+, Computer 1 \d+ · won by (\u2068You\u2069|Computer 1)$", listed
    ), listed
