"""Screens drawn from engine views: what the table and a hand show, during a deal,
between deals and at the end of the match."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot.model import codec
from bot.model.contract import ChatRef, Mention, Screen, Style, UserRef
from bot.model.gamedoc import FINISHED, RUNNING, GameDoc, Seat, TableSettings
from bot.model.hand import HandView, LegalMove, hand_view
from bot.model.parts import TileRef
from bot.model.table import table_view
from bot.views.hand import hand_buttons, hand_screen
from bot.views.i18n import Translator, translator
from bot.views.lobby import int_steps, lobby_screen, next_option_value
from bot.views.table_screen import HISTORY, table_screen
from engine import (
    DOUBLE_SIX,
    Fixture,
    Move,
    State,
    Tile,
    apply,
    get_variant,
    legal_moves,
    new_match,
    next_deal,
    parse_move,
    public_view,
    view,
)

_ = translator("en")
TELEGRAM_ROW, TELEGRAM_BUTTONS = 8, 100  # an inline keyboard's limits
ANNA, BORIS = UserRef("tg", "1", "Anna"), UserRef("tg", "2", "Boris")


def doc_for(state: State[Any], moves: tuple[tuple[int, str], ...] = ()) -> GameDoc:
    return GameDoc(
        id="abcdefgh",
        chat=ChatRef("tg", "-1"),
        status=RUNNING,
        variant=state.variant,
        options={},
        seed=0,
        seats=(Seat(user=ANNA), Seat(user=BORIS)),
        host=ANNA.key,
        settings=TableSettings(60, False, True, "en"),
        created=0.0,
        deals=(state.dealt,),
        deal_starts=(0,),
        moves=moves,
    )


def table_shown(translator: Translator, doc: GameDoc, state: State[Any]) -> Screen:
    """The table's screen of ``doc`` as it stands in ``state``, drawn from its model."""
    return table_screen(translator, doc, table_view(doc, public_view(state)))


def drawn_hand(doc: GameDoc, state: State[Any], seat: int) -> Screen:
    """``seat``'s hand as it is drawn from its model and the table's, with no timer."""
    return hand_screen(
        _, doc, hand_view(doc, state, seat), table_view(doc, public_view(state)), None
    )


def fixture(*hands: str, leader: int | None = 0) -> Fixture:
    parsed = tuple(tuple(Tile.parse(t) for t in hand.split()) for hand in hands)
    dealt = {t for hand in parsed for t in hand}
    return Fixture(parsed, tuple(t for t in DOUBLE_SIX if t not in dealt), leader)


def short_deal() -> State[Any]:
    """Anna leads [6|6] and goes out with [6|5] and [5|5]; Boris holds [6|4] [4|4] [4|3]."""
    hands = fixture("6-6 6-5 5-5", "6-4 4-4 4-3")
    return new_match("tyaga", 2, options={"hand_size": 3}, fixture=hands)


def played(state: State[Any], *moves: str) -> tuple[State[Any], tuple[tuple[int, str], ...]]:
    done: list[tuple[int, str]] = []
    for text in moves:
        assert state.turn is not None
        done.append((state.turn, text))
        state, _events = apply(state, parse_move(text))
    return state, tuple(done)


def test_the_table_shows_the_line_counts_scores_and_who_is_to_move() -> None:
    start = short_deal()
    state, moves = played(start, "6-6", "6-4@L")
    screen = table_shown(_, doc_for(state, moves), state)
    text = screen.plain_text()
    assert "Line: [4|6][6|6]" in text
    assert "▶ \u2068Anna\u2069: 2 tiles, 0 points" in text
    assert "• \u2068Boris\u2069: 2 tiles, 0 points" in text
    assert "\u2068Boris\u2069 played [6|4] on the left" in text
    assert (Mention(ANNA), " to move") in screen.lines
    labels = [b.label for row in screen.buttons for b in row]
    assert labels == ["My tiles", "Open my hand", "Picture"]


def test_a_hand_shows_its_tiles_and_a_button_per_legal_move() -> None:
    state = short_deal()
    state, moves = played(state, "6-6", "6-4@L")
    screen = drawn_hand(doc_for(state, moves), state, 0)
    assert "[6|6]" not in screen.plain_text() and "[6|5] [5|5]" in screen.plain_text()
    assert "Your turn. Open ends: 4 and 6." in screen.plain_text()
    playable = [b.label for row in screen.buttons for b in row if b.enabled]
    assert playable == ["[6|5] ▶"]
    assert all(
        b.style is Style.PRIMARY and b.payload for row in screen.buttons for b in row if b.enabled
    )


def test_every_tile_in_hand_is_a_button_and_those_not_playable_are_disabled() -> None:
    state = short_deal()
    state, moves = played(state, "6-6", "6-4@L")
    screen = drawn_hand(doc_for(state, moves), state, 0)
    shown = [(b.label, b.enabled) for row in screen.buttons for b in row]
    assert shown == [("[6|5] ▶", True), ("[5|5]", False)]


def test_a_tile_that_cannot_be_played_asks_why_when_pressed() -> None:
    state = short_deal()
    state, moves = played(state, "6-6", "6-4@L")
    [[_playable, unplayable]] = drawn_hand(doc_for(state, moves), state, 0).buttons
    why = codec.decode(unplayable.payload or "")
    assert why == codec.TilePress("abcdefgh", state.counter, Tile.parse("5-5"), ChatRef("tg", "-1"))


def test_a_hand_out_of_turn_shows_its_tiles_as_disabled_buttons() -> None:
    state = short_deal()
    screen = drawn_hand(doc_for(state), state, 1)
    assert "Wait for your turn." in screen.plain_text()
    shown = [(b.label, b.enabled) for row in screen.buttons for b in row]
    assert shown == [("[6|4]", False), ("[4|4]", False), ("[4|3]", False)]


def test_move_buttons_carry_the_game_the_counter_and_the_move() -> None:
    state = short_deal()
    [[first, *_rest]] = hand_buttons(_, "abcdefgh", hand_view(doc_for(state), state, 0))
    assert codec.decode(first.payload or "") == codec.MovePress("abcdefgh", 0, parse_move("6-6"))


def test_a_kozel_double_move_is_one_button() -> None:
    hands = fixture("6-6 5-5 3-3 6-4 1-0 2-0 1-1", "6-5 4-3 2-1 3-0 4-0 5-0 4-1", leader=None)
    state = new_match("kozel", 2, fixture=hands)
    state, _moves = played(state, "6-6", "6-5@L", "6-4@R", "4-3@R")
    labels = [
        b.label
        for row in hand_buttons(_, "abcdefgh", hand_view(doc_for(state), state, 0))
        for b in row
    ]
    assert "◀ [5|5] + [3|3] ▶" in labels


def test_between_deals_the_table_shows_the_deals_result_and_the_next_deal_button() -> None:
    state = short_deal()
    state, moves = played(state, "6-6", "6-4@L", "6-5@R", "4-4@L", "5-5@R")
    screen = table_shown(_, doc_for(state, moves), state)
    text = screen.plain_text()
    assert "\u2068Anna\u2069 went out." in text
    assert "• \u2068Boris\u2069: 1 tile · 0 points this deal, 0 points in all" in text
    assert "• \u2068Anna\u2069: 0 tiles · 7 points this deal, 7 points in all" in text
    assert "Deal 1 is over." in text
    assert [b.label for row in screen.buttons for b in row] == ["Next deal"]


def test_a_cards_deal_end_gives_each_seat_its_tiles_and_points_once() -> None:
    state = new_match("kozel", 2, {}, 3)
    while not state.deal_over:
        state = apply(state, legal_moves(state)[0])[0]
    card = table_shown(_, doc_for(state), state).card
    assert card is not None
    lines = ["".join(map(str, line)).removeprefix("• ") for line in card.body + card.closing]
    fields = [field.name.removeprefix("• ") for field in card.fields]
    for name in ("\u2068Anna\u2069", "\u2068Boris\u2069"):
        told = [text for text in lines if text.startswith(f"{name}: ")] + [
            field for field in fields if field == name
        ]
        assert len(told) == 1 and "points in all" in told[0], told


def test_a_finished_deal_tells_the_moves_before_who_went_out() -> None:
    state = short_deal()
    state, moves = played(state, "6-6", "6-4@L", "6-5@R", "4-4@L", "5-5@R")
    screen = table_shown(_, doc_for(state, moves), state)
    told = [text for (text,) in screen.lines]
    story = [
        "\u2068Anna\u2069 played [5|5] on the right",
        "\u2068Anna\u2069 went out.",
        "• \u2068Anna\u2069: 0 tiles · 7 points this deal, 7 points in all",
        "Deal 1 is over.",
    ]
    assert [text for text in told if text in story] == story
    assert screen.card is not None
    assert screen.card.moves[-1] == ("\u2068Anna\u2069 played [5|5] on the right",)
    assert screen.card.closing[0] == ("\u2068Anna\u2069 went out.",)


def drawing_deal() -> State[Any]:
    """Anna leads [6|6]; Boris holds no six and must draw."""
    hands = fixture("6-6 6-5 5-5", "4-4 4-3 3-3")
    return new_match("tyaga", 2, options={"hand_size": 3}, fixture=hands)


def test_a_players_draws_in_a_row_are_told_as_one_move() -> None:
    state, moves = played(drawing_deal(), "6-6", "draw", "draw", "draw")
    told = table_shown(_, doc_for(state, moves), state).plain_text()
    assert "\u2068Anna\u2069 led with [6|6]\n\u2068Boris\u2069 drew 3 tiles\n" in told
    assert "drew a tile" not in told
    state, more = played(state, *["draw"] * 2)
    told = table_shown(_, doc_for(state, moves + more), state).plain_text()
    assert "\u2068Boris\u2069 drew 5 tiles" in told and "\u2068Boris\u2069 drew 3 tiles" not in told


def test_a_draw_made_when_time_ran_out_is_told_apart_from_the_draws_around_it() -> None:
    state, moves = played(drawing_deal(), "6-6", "draw", "draw", "draw")
    doc = replace(doc_for(state, moves), timed_out=(1,))
    told = table_shown(_, doc, state).plain_text()
    assert "\u2068Boris\u2069 drew a tile (time ran out)\n\u2068Boris\u2069 drew 2 tiles\n" in told
    doc = replace(doc_for(state, moves), timed_out=(2,))
    told = table_shown(_, doc, state).plain_text()
    boris = "\u2068Boris\u2069"
    assert f"drew a tile\n{boris} drew a tile (time ran out)\n{boris} drew a tile\n" in told


def test_the_table_keeps_only_the_last_few_moves() -> None:
    state = new_match("tyaga", 2, seed=1)
    moves: tuple[tuple[int, str], ...] = ()
    while len(moves) < 8 and not state.deal_over:
        state, more = played(state, str(legal_moves(state)[-1]))
        moves += more
    shown = table_shown(_, doc_for(state, moves), state)
    assert shown.card is not None and len(shown.card.moves) == HISTORY
    assert "led with" not in shown.plain_text()


def test_the_oldest_move_the_table_keeps_counts_every_draw_of_its_run() -> None:
    # Boris draws 18 tiles before one fits; three moves follow, so the run is the
    # oldest of the moves kept, and all of it is told.
    moves = ("6-6", *["draw"] * 18, "6-0@L", "6-5@R", "0-0@L")
    state, played_moves = played(drawing_deal(), *moves)
    shown = table_shown(_, doc_for(state, played_moves), state)
    assert shown.card is not None and len(shown.card.moves) == HISTORY
    assert shown.card.moves[0] == ("\u2068Boris\u2069 drew 18 tiles",)


def test_draws_in_a_row_take_the_plural_of_their_number_in_every_language() -> None:
    ru = translator("ru")
    state, moves = played(drawing_deal(), "6-6", "draw", "draw")
    two = table_shown(ru, doc_for(state, moves), state).plain_text()
    state, more = played(state, *["draw"] * 3)
    five = table_shown(ru, doc_for(state, moves + more), state).plain_text()
    assert "\u2068Boris\u2069: добор из базара, 2 фишки" in two
    assert "\u2068Boris\u2069: добор из базара, 5 фишек" in five


def finished_kozel(teams: bool) -> State[Any]:
    """A Kozel match played to its end by always making the first legal move."""
    players = 4 if teams else 2
    state = new_match("kozel", players, {"target": 11, "teams": "on" if teams else "off"}, 5)
    while not state.match_over:
        state = next_deal(state) if state.deal_over else apply(state, legal_moves(state)[0])[0]
    return state


def test_a_finished_kozel_table_names_the_winner_and_the_goat_and_offers_a_rematch() -> None:
    state = finished_kozel(teams=False)
    doc = doc_for(state).but(status=FINISHED)
    screen = table_shown(_, doc, state)
    text = screen.plain_text()
    (goat,) = [n for n, s in enumerate(state.match_scores) if s >= 11]
    (winner,) = state.winners
    names = ["\u2068Anna\u2069", "\u2068Boris\u2069"]
    assert f"The match is over. Won by {names[winner]}." in text
    assert f"The goat: {names[goat]}." in text
    [[rematch, scores]] = screen.buttons
    assert (rematch.label, codec.decode(rematch.payload or "")) == (
        "Rematch",
        codec.RematchPress("abcdefgh"),
    )
    assert (scores.label, codec.decode(scores.payload or "")) == (
        "Scores",
        codec.ScoresPick("kozel"),
    )


def test_a_finished_matchs_hands_say_the_match_is_over_as_the_table_does() -> None:
    state = finished_kozel(teams=False)
    doc = doc_for(state).but(status=FINISHED)
    table = table_shown(_, doc, state).plain_text()
    hand = drawn_hand(doc, state, 0).plain_text()
    assert "The match is over." in table
    assert hand.splitlines()[-1] == "The match is over."


def test_a_finished_kozel_table_in_teams_names_the_teams() -> None:
    state = finished_kozel(teams=True)
    people = tuple(Seat(user=UserRef("tg", str(n), name)) for n, name in enumerate("ABCD"))
    doc = doc_for(state).but(status=FINISHED, seats=people)
    text = table_shown(_, doc, state).plain_text()
    assert "Teams: \u2068A\u2069 and \u2068C\u2069 against \u2068B\u2069 and \u2068D\u2069." in text
    assert "The match is over. Won by " in text and "The goat" in text


def test_a_stopped_table_offers_no_buttons() -> None:
    state = short_deal()
    doc = doc_for(state).but(status="stopped")
    screen = table_shown(_, doc, state)
    assert "The game was stopped." in screen.plain_text() and screen.buttons == ()


def test_three_guns_tells_the_player_what_each_end_takes() -> None:
    state = new_match("three_guns", 3, seed=2)
    assert state.turn is not None
    state, _moves = played(state, str(view(state, state.turn).legal[0]))
    assert state.turn is not None
    doc = doc_for(state).but(seats=(Seat(user=ANNA), Seat(user=BORIS), Seat(computer="greedy")))
    text = drawn_hand(doc, state, state.turn).plain_text()
    assert "The left end takes" in text


def test_the_lobby_lists_seats_options_and_table_settings() -> None:
    state = new_match("tyaga", 2, seed=1)
    doc = doc_for(state).but(status="lobby", deals=(), deal_starts=(), options={"target": 50})
    text = lobby_screen(_, doc).plain_text()
    assert "1. \u2068Anna\u2069" in text and "2. \u2068Boris\u2069" in text
    assert "• Points that end the match: 50" in text
    assert "• Tiles dealt to each player: 7" in text
    assert "• First tile: any tile" in text
    assert not [word for word in ("hand_size", "target", "opening", "no_double") if word in text]
    assert "Turn timer: 60 s · auto-start: off · pings: on" in text


def test_the_settings_buttons_name_each_option_and_its_values_in_words() -> None:
    state = new_match("tyaga", 2, seed=1)
    doc = doc_for(state).but(status="lobby", deals=(), deal_starts=(), panel="settings")
    labels = [b.label for row in lobby_screen(_, doc).buttons for b in row]
    assert "First tile: any tile ▸ the highest double" in labels
    assert not [label for label in labels if "_" in label or "opening" in label]


def test_the_lobby_leaves_out_an_option_that_the_first_tile_makes_void() -> None:
    state = new_match("tyaga", 2, seed=1)
    lobby = doc_for(state).but(status="lobby", deals=(), deal_starts=(), panel="settings")
    for opening, shown in (("any", False), ("double_six", False), ("highest_double", True)):
        screen = lobby_screen(_, lobby.but(options={"opening": opening}))
        labels = [b.label for row in screen.buttons for b in row]
        said = screen.plain_text().splitlines() + labels
        assert any(text.startswith("• First tile: ") for text in said)
        told = [text for text in said if "If nobody holds a double" in text]
        assert len(told) == (2 if shown else 0), (opening, told)


def test_a_settings_button_cycles_through_the_choices_and_back() -> None:
    spec = next(s for s in get_variant("tyaga").option_specs if s.name == "opening")
    assert next_option_value(spec, "any", 2) == (1, "highest_double")
    assert next_option_value(spec, "double_six", 2) == (0, "any")


def test_a_number_setting_cycles_through_a_few_round_values() -> None:
    spec = next(s for s in get_variant("tyaga").option_specs if s.name == "target")
    assert int_steps(spec, 2) == [10, 50, 100, 200, 1000]
    small = next(s for s in get_variant("tyaga").option_specs if s.name == "hand_size")
    assert int_steps(small, 2) == [3, 4, 5, 6, 7, 8]


def big_hand_view() -> HandView:
    """Anna holds the 21 tiles without a blank and both ends show 6: her six sixes
    fit either end."""
    hand = tuple(t for t in DOUBLE_SIX if t.lo != 0)[:21]
    sixes = [t for t in hand if 6 in (t.hi, t.lo)]
    legal = tuple(Move.play(t, end) for t in sixes for end in ("L", "R"))
    return HandView(
        version=0,
        table="abcdefgh",
        seat=0,
        deal=1,
        counter=0,
        tiles=tuple(TileRef.of(t) for t in hand),
        moves=tuple(LegalMove.of(m) for m in legal),
    )


def test_a_big_hand_fits_a_telegram_keyboard() -> None:
    rows = hand_buttons(_, "abcdefgh", big_hand_view())
    assert all(len(row) <= TELEGRAM_ROW for row in rows)
    assert sum(len(row) for row in rows) <= TELEGRAM_BUTTONS
    disabled = [b.label for row in rows for b in row if not b.enabled]
    assert len(disabled) == 21 - 6
