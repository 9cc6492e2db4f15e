"""The terminal table, driven through its input and output streams."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest

from adapters.console import TableRequest, look_around, table_chat
from bot.model.contract import ChatRef
from bot.model.gamedoc import from_json
from bot.views.i18n import translator
from engine import DOUBLE_SIX, Tile
from tests.adapters.console.terminal import WAIT, Terminal, always, last_line

QUICK = TableRequest("tyaga", options=("target=10",))
DEALS = TableRequest("tyaga", options=("target=60",))  # a match of several deals


async def test_a_seeded_game_is_played_to_its_end(terminal: Terminal) -> None:
    status, transcript = await terminal.play(always("1"), DEALS)
    assert status == 0
    assert re.search(r"The match is over\. (Won by Computer 1|You won)\.", transcript)
    assert "Won by You" not in transcript
    # The table says the match is over, with who won; the farewell does not say it again.
    assert re.search(r"The match is over\. [^\n]*\n(│[^\n]*\n)*└─+\n» Bye!\n?$", transcript)
    assert "Press Enter for the next deal (or type quit). 1" in transcript
    assert await terminal.store.load(ChatRef("con", "local")) is None  # finished and cleared
    last = await terminal.store.last_game(ChatRef("con", "local"))
    assert last is not None and last["status"] == "finished"


async def test_the_same_seed_plays_the_same_game(terminal: Terminal) -> None:
    _, first = await terminal.play(always("1"), QUICK)
    _, second = await terminal.play(always("1"), QUICK)

    def same(text: str) -> str:  # the ratings go on from the first match to the second
        return re.sub(r"table \w+|Ratings: .*", "", text)

    assert same(first) == same(second)


async def test_the_table_shows_the_line_seats_scores_and_your_tiles(terminal: Terminal) -> None:
    _, transcript = await terminal.play(["quit"], QUICK)
    assert "┌─ Tyaga (Draw) · table " in transcript
    assert re.search(r"│ [▶•] \u2068You\u2069: 7 tiles, 0 points", transcript)
    assert re.search(r"│ [▶•] Computer 1: [67] tiles, 0 points", transcript)
    assert re.search(r"^(\[\d\|\d\] ){6}\[\d\|\d\]$", transcript, re.MULTILINE)  # the hand
    assert re.search(r"^  1\) ", transcript, re.MULTILINE)  # numbered moves
    assert "You> quit" in transcript


async def test_the_table_tells_the_core_its_name(terminal: Terminal) -> None:
    await terminal.play(["quit"], QUICK)
    stored = await terminal.store.load(ChatRef("con", "local"))
    assert stored is not None and from_json(stored.doc).chat_title == "this table"


async def test_bad_input_is_explained_and_asked_again(terminal: Terminal) -> None:
    await terminal.play(["quit"], QUICK)
    found = await terminal.game()
    assert found is not None
    doc, state = found
    taken = set(doc.deals[0].hands[0]) | {Tile(p.left, p.right) for p in state.line}
    absent = next(t for t in DOUBLE_SIX if t not in taken)
    typed = ["", "six four", "0", "42", "²", "٣", "draw please", f"{absent}@L", "quit"]
    status, transcript = await terminal.play(typed, TableRequest(resume=True))
    assert status == 0
    assert transcript.count("You> ") == len(typed)
    assert "That is not a move." in transcript
    assert "There is no choice 0" in transcript
    assert "There is no choice 42" in transcript
    assert f"[{absent.hi}|{absent.lo}] is not in your hand" in transcript
    after = await terminal.game()
    assert after is not None
    assert after[0].moves == doc.moves  # nothing was played by the bad input


async def test_a_move_can_be_typed_as_the_hint_writes_it(terminal: Terminal) -> None:
    def respond(transcript: str) -> str | None:
        tail = transcript[transcript.rfind("You> ") :]
        hinted = re.findall(r"» Your moves: ([^,\n]+)", transcript)
        if "You> " not in transcript or "Computer 1 to move" in tail:
            return "quit"
        if not hinted:
            return "hint"
        return hinted[0] if transcript.count("You> ") == 2 else "quit"

    _, transcript = await terminal.play(respond, QUICK)
    typed = re.findall(r"» Your moves: ([^,\n]+)", transcript)[0]
    assert f"You> {typed}\n" in transcript
    found = await terminal.game()
    assert found is not None
    assert any(seat == 0 for seat, _ in found[0].moves)


async def test_quit_keeps_the_match_and_resume_continues_it(terminal: Terminal) -> None:
    _, before = await terminal.play(["1", "quit"], QUICK)
    assert "The match is saved: domino-bot play --resume continues it." in before
    saved = await terminal.game()
    assert saved is not None and saved[0].status == "running"
    _, after = await terminal.play(["quit"], TableRequest(resume=True))
    assert "» Continuing the saved match: Tyaga (Draw), 2 players (You, Computer 1), " in after
    assert last_line(after) == last_line(before)
    status, rest = await terminal.play(always("1"), TableRequest(resume=True))
    assert status == 0 and "The match is over." in rest
    finished = await terminal.store.last_game(ChatRef("con", "local"))
    assert finished is not None and finished["id"] == saved[0].id


async def test_play_names_the_saved_match_and_asks_until_the_answer_is_clear(
    terminal: Terminal,
) -> None:
    await terminal.play(["1", "quit"], QUICK)
    saved = await terminal.game()
    _, transcript = await terminal.play(["sure", "maybe", "y", "quit"], QUICK)
    assert "» A match is saved: Tyaga (Draw), 2 players (You, Computer 1), " in transcript
    assert transcript.count("Continue it? [Y/n] ") == 3
    again = await terminal.game()
    assert saved is not None and again is not None and again[0].id == saved[0].id
    assert again[0].moves == saved[0].moves


async def test_enter_alone_at_the_question_continues_the_saved_match(terminal: Terminal) -> None:
    await terminal.play(["1", "quit"], QUICK)
    saved = await terminal.game()
    _, transcript = await terminal.play(["", "quit"], QUICK)
    assert transcript.count("Continue it? [Y/n] ") == 1
    assert "» Continuing the saved match: Tyaga (Draw), 2 players (You, Computer 1), " in transcript
    again = await terminal.game()
    assert saved is not None and again is not None and again[0].id == saved[0].id


async def test_quit_at_the_question_keeps_the_saved_match(terminal: Terminal) -> None:
    await terminal.play(["1", "quit"], QUICK)
    saved = await terminal.game()
    for typed in (["quit"], []):
        status, _ = await terminal.play(typed, QUICK)
        assert status == 0
        kept = await terminal.game()
        assert saved is not None and kept is not None and kept[0] == saved[0]


async def test_a_new_match_beside_a_saved_one_leaves_it_alone(terminal: Terminal) -> None:
    await terminal.play(["1", "quit"], QUICK)
    saved = await terminal.game()
    terminal.seed = 2
    _, transcript = await terminal.play(["n", "quit"], QUICK)
    assert "Saved matches wait: 1. domino-bot play --resume lists them." in transcript
    kept = await terminal.game()
    fresh = await terminal.game(table_chat(2))
    assert saved is not None and kept is not None and kept[0] == saved[0]
    assert fresh is not None and fresh[0].id != saved[0].id and fresh[0].status == "running"


async def test_resume_lists_several_saved_matches_and_continues_the_chosen_one(
    terminal: Terminal,
) -> None:
    await terminal.play(["1", "quit"], QUICK)
    await terminal.play(["quit"], TableRequest("kozel", players=3))
    kozel = await terminal.game(table_chat(2))
    assert kozel is not None
    _, transcript = await terminal.play(["7", "x", "1", "quit"], TableRequest(resume=True))
    assert (
        "Saved matches:\n  1) Kozel (the goat), 3 players (You, Computer 1, Computer 2), "
        in transcript
    )
    assert "\n  2) Tyaga (Draw), 2 players (You, Computer 1), " in transcript
    assert transcript.count("Which one? [1-2] ") == 3
    assert "» Continuing the saved match: Kozel (the goat), 3 players" in transcript
    assert f"table {kozel[0].id}" in transcript


async def test_a_table_that_cannot_open_keeps_the_saved_match(terminal: Terminal) -> None:
    await terminal.play(["1", "quit"], QUICK)
    saved = await terminal.game()
    status, transcript = await terminal.play([], TableRequest("kozel", players=5))
    assert status == 2 and "The table is full" in transcript
    kept = await terminal.game()
    assert saved is not None and kept is not None and kept[0] == saved[0]
    assert await terminal.game(table_chat(2)) is None  # the lobby it tried is closed


async def test_discard_ends_the_match_for_good(terminal: Terminal) -> None:
    await terminal.play(["1", "quit"], QUICK)
    status, transcript = await terminal.play(["discard", "discard yes"], TableRequest(resume=True))
    assert status == 0
    asked = "» This ends the match for good and keeps nothing of it: type discard yes to do it."
    assert transcript.index(asked) < transcript.index("» The match is discarded. Bye!")
    assert await terminal.game() is None
    _, again = await terminal.play(["quit"], TableRequest(resume=True))
    assert "There is no saved match: a new one begins." in again


async def test_discard_alone_asks_and_keeps_the_match(terminal: Terminal) -> None:
    await terminal.play(["1", "quit"], QUICK)
    saved = await terminal.game()
    _, transcript = await terminal.play(
        ["discard", "discard maybe", "quit"], TableRequest(resume=True)
    )
    assert transcript.count("type discard yes to do it.") == 2
    kept = await terminal.game()
    assert saved is not None and kept is not None and kept[0] == saved[0]


async def test_resume_with_nothing_saved_starts_a_new_match(terminal: Terminal) -> None:
    _, transcript = await terminal.play(["quit"], TableRequest(resume=True))
    assert "There is no saved match: a new one begins." in transcript
    assert "You> quit" in transcript


async def test_end_of_input_leaves_cleanly_and_keeps_the_match(terminal: Terminal) -> None:
    status, transcript = await terminal.play([], QUICK)
    assert status == 0
    assert transcript.rstrip().endswith(
        "» End of input. The match is saved: domino-bot play --resume continues it."
    )
    found = await terminal.game()
    assert found is not None and found[0].status == "running"


async def test_a_stop_signal_leaves_at_the_prompt(terminal: Terminal) -> None:
    stop = asyncio.Event()

    def respond(transcript: str) -> str | None:
        stop.set()  # as Ctrl-C or SIGTERM would, while the table waits for a line
        return WAIT

    status, transcript = await terminal.play(respond, QUICK, stop=stop)
    assert status == 0
    assert "» Stopped. The match is saved" in transcript


async def test_a_stop_signal_while_computers_play_leaves_without_a_prompt(
    terminal: Terminal,
) -> None:
    stop = asyncio.Event()
    stop.set()
    status, transcript = await terminal.play(always("1"), QUICK, stop=stop)
    assert status == 0
    assert "» Stopped." in transcript


async def test_several_people_share_the_keyboard_without_seeing_each_others_tiles(
    terminal: Terminal,
) -> None:
    request = TableRequest("tyaga", players=3, humans=2, options=("target=15",))
    typed = [line for _ in range(40) for line in ("", "1")]
    _, transcript = await terminal.play(typed, request)
    turns = transcript.split("Pass the keyboard to ")
    assert "Your tiles" not in turns[0]  # no hand before the first hand-over
    assert len(turns) > 3
    for turn in turns[1:]:
        name = turn.split(" and press Enter.", 1)[0]  # isolated, as a sentence names him
        prompts = {f"\u2068{p}\u2069" for p in re.findall(r"^(Player \d)> ", turn, re.MULTILINE)}
        assert prompts <= {name}
        assert "Your tiles" not in turn or prompts == {name}


async def test_a_bad_game_name_is_refused_with_the_known_games(terminal: Terminal) -> None:
    status, transcript = await terminal.play([], TableRequest("chess"))
    assert status == 2
    assert "There is no game called chess" in transcript
    assert await terminal.game() is None


async def test_a_table_the_game_cannot_seat_is_refused_and_closed(terminal: Terminal) -> None:
    status, transcript = await terminal.play([], TableRequest("baghdad", players=3))
    assert status == 2
    assert "The table is full: Thief of Baghdad is played by at most 2 players." in transcript
    assert await terminal.game() is None


async def test_help_lists_what_can_be_typed(terminal: Terminal) -> None:
    _, transcript = await terminal.play(["help", "quit"], QUICK)
    for word in ("hint", "table", "rules", "scores", "top", "stats", "mydata", "export", "quit"):
        assert re.search(rf"^  {word} ", transcript, re.MULTILINE)
    # A Tyaga player is shown how to write a move, not the moves of every other game.
    assert "6-4@L" in transcript
    assert [move for move in ("steal", "recover", "across", "@L+") if move in transcript] == []


async def test_scores_may_name_a_game_and_export_goes_where_it_is_told(
    terminal: Terminal, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    typed = ["1", "scores kozel", "scores", "export", "export My Replays", "quit"]
    _, transcript = await terminal.play(typed, QUICK)
    assert "Scoreboard: Kozel (the goat)" in transcript
    # No match is finished yet: no game has a board of its own (and none adds games up).
    assert "Nobody has finished a match here yet." in transcript
    assert "not a move" not in transcript
    # In the first deal there is nothing to export: the deal in play stays hidden.
    assert transcript.count("Nothing to export until the first deal is over.") == 2
    assert not list(terminal.folder.glob("domino-*.json"))
    assert not (tmp_path / "My Replays").exists()


async def test_a_table_in_polish_speaks_polish_in_its_prompts_help_and_screens(
    terminal: Terminal,
) -> None:
    polish = TableRequest("tyaga", options=DEALS.options, lang="pl")
    typed = iter(["help"])
    status, transcript = await terminal.play(lambda _prompt: next(typed, "1"), polish)
    assert status == 0
    assert "Wpisz numer ruchu albo sam ruch" in transcript  # help
    assert "Naciśnij Enter, aby zacząć następne rozdanie (albo wpisz quit). 1" in transcript
    assert "Tiaga (dobieranka)" in transcript and "Partia zakończona." in transcript
    assert transcript.rstrip().endswith("» Do zobaczenia!")
    english = ("Press Enter", "Type the number", "Bye!", "Deal ", "Your tiles")
    assert [word for word in english if word in transcript] == []


async def test_a_hand_over_clears_the_screen_and_the_scrollback(terminal: Terminal) -> None:
    request = TableRequest("tyaga", players=2, humans=2, options=("target=15",))
    _, transcript = await terminal.play(["", "1", "", "quit"], request, clear_screen=True)
    turns = transcript.split("Pass the keyboard to ")
    assert len(turns) >= 3
    for before in turns[:-1]:  # every hand-over starts on a wiped screen and scrollback
        assert before.endswith("\x1b[H\x1b[2J\x1b[3J")


async def test_top_and_stats_answer_at_the_terminal(terminal: Terminal) -> None:
    typed = ["top global kozel", "stats", "stats @Zed", "top chess", "quit"]
    _, transcript = await terminal.play(typed, QUICK)
    assert "Ratings in Kozel (the goat), all chats:" in transcript
    assert "Your results in every chat:" in transcript  # said to him: the terminal is his
    assert "There is no game called chess" in transcript
    assert "Nobody called \u2068Zed\u2069 has finished a match here." in transcript


async def test_a_deals_end_is_told_by_the_table_and_no_picture_of_it_is_drawn(
    terminal: Terminal,
) -> None:
    _, transcript = await terminal.play(always("1"), DEALS)
    assert "Deal 1 is over." in transcript
    assert not re.search(r"· table \w+ · Deal \d", transcript)
    assert terminal.painter.asked == 0  # the terminal shows no picture: none is drawn


async def test_the_players_own_draws_name_the_tiles_he_drew(terminal: Terminal) -> None:
    _, transcript = await terminal.play(always("1"), DEALS)
    told = re.findall(r"│ (You drew .*)", transcript)
    assert told, "the player never drew in this match"
    assert all(re.fullmatch(r"You drew( \[\d\|\d\])+", line) for line in told), told
    assert re.search(r"Computer 1 drew (a tile|\d+ tiles)", transcript)  # his stay hidden


async def test_mydata_at_the_prompt_tells_what_is_kept_of_the_player(terminal: Terminal) -> None:
    await terminal.play(always("1"), QUICK)  # a finished match: results and ratings kept
    _, transcript = await terminal.play(["mydata", "quit"], QUICK)
    assert re.search(
        r"^Kept about you \(con:\w+\), for the scoreboards and ratings:", transcript, re.MULTILINE
    )
    assert "Tyaga (Draw): won" in transcript and "days after your last match" in transcript
    assert "not a move" not in transcript


async def test_history_lists_the_finished_match_and_writes_its_replay(
    terminal: Terminal,
) -> None:
    status, _ = await terminal.play(always("1"), TableRequest("tyaga", options=DEALS.options))
    assert status == 0
    _, transcript = await terminal.play(["history", "history 1", "history 7", "quit"], QUICK)
    assert "Finished matches here, newest first:\n" in transcript
    assert "1. " in transcript and "Tyaga" in transcript
    (written,) = terminal.folder.glob("domino-*.json")
    assert f"» The replay file is written: {written}\n" in transcript
    assert "There is no match 7 in this chat's list." in transcript


async def test_review_tells_the_player_how_his_last_finished_match_went(
    terminal: Terminal,
) -> None:
    _, before = await terminal.play(["review", "discard yes"], QUICK)
    assert "You have played no finished match kept in this chat." in before
    status, _ = await terminal.play(always("1"), TableRequest("tyaga", options=DEALS.options))
    assert status == 0
    _, transcript = await terminal.play(["review", "quit"], QUICK)
    assert "Your play in Tyaga (Draw), table " in transcript
    assert "points more chance of winning" in transcript or "no costly decision" in transcript


async def test_a_saved_match_names_its_seats_in_the_language_of_the_list(
    terminal: Terminal,
) -> None:
    await terminal.play(["1", "quit"], TableRequest("tyaga", lang="pl", options=("target=10",)))
    (saved,) = (await look_around(terminal.store)).saved
    for lang in ("en", "ru", "pl"):
        _ = translator(lang)
        names = f"({_('You')}, {_('Computer %(n)d', n=1)})"
        assert names in saved.title(lang), (lang, saved.title(lang))
    assert "Ty" not in saved.title("ru") and "You" not in saved.title("ru")
