"""The button payload codec: compact, versioned, and strict about what it reads."""

from __future__ import annotations

import contextlib
import re
from typing import get_args

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.model import codec, payload_fields
from bot.model.codec import BadPayload
from bot.model.contract import ChatRef
from engine import DONE, DOUBLE_SIX, DRAW, PASS, Move, Tile, all_variants, legal_moves, new_match

GAME = "k3j9x2ab"
ALPHABET = re.compile(r"[0-9A-Za-z_-]+")


def every_move() -> list[Move]:
    moves: list[Move] = [DRAW, PASS, DONE]
    for tile in DOUBLE_SIX:
        moves.append(Move.lead(tile))
        if not tile.is_double:
            moves.append(Move.lead(tile, flip=True))
        moves.append(Move.steal(tile))
        for end in ("L", "R"):
            moves.append(Move.play(tile, end))
            moves.append(Move.play(tile, end, across=True))
    doubles = [t for t in DOUBLE_SIX if t.is_double]
    for a in doubles:
        for b in doubles:
            if a is not b:
                moves.append(Move.double(a, b))
                moves.append(Move.recover(a, b))
    return moves


def test_every_move_round_trips_through_a_payload() -> None:
    for move in every_move():
        payload = codec.move_payload(GAME, 12345, move)
        assert codec.decode(payload) == codec.MovePress(GAME, 12345, move)


@pytest.mark.parametrize("chat", [None, ChatRef("tg", "-100123"), ChatRef("dc", "7", "9")])
def test_a_hands_buttons_are_written_as_each_alone_is(chat: ChatRef | None) -> None:
    # A hand joins the game, turn and chat of its buttons once; each payload stays the
    # one written field by field, which buttons already sent carry.
    payloads = codec.HandPayloads(GAME, 12345, chat)
    tail = payload_fields.chat_fields(chat)
    for move in every_move():
        fields = ["1m", GAME, payload_fields.b36(12345), payload_fields.encode_move(move), *tail]
        assert payloads.move(move) == "_".join(fields)
        assert codec.decode(payloads.move(move)) == codec.MovePress(GAME, 12345, move, chat)
    for tile in DOUBLE_SIX:
        fields = ["1u", GAME, payload_fields.b36(12345), payload_fields.DIGITS[tile.index], *tail]
        assert payloads.tile(tile) == "_".join(fields)
        assert codec.decode(payloads.tile(tile)) == codec.TilePress(GAME, 12345, tile, chat)
    steady = codec.SteadyPayloads(GAME, 321, chat)
    for tile in DOUBLE_SIX:
        fields = ["1p", GAME, payload_fields.b36(321), payload_fields.DIGITS[tile.index], *tail]
        assert steady.tile(tile) == "_".join(fields)
        assert codec.decode(steady.tile(tile)) == codec.HandPress(GAME, 321, tile, None, chat)


BIGGEST_CHATS = [
    ChatRef("tg", "-1009999999999", "2147483647"),
    ChatRef("dc", "18446744073709551615", "18446744073709551615"),
]


@pytest.mark.parametrize(
    "chat",
    [
        *BIGGEST_CHATS,
        ChatRef("tg", "42"),
        ChatRef("tg", "-100123"),
        ChatRef("tg", "-500000"),  # its id in base 36 starts with a letter
        ChatRef("dc", "0"),
    ],
)
def test_a_chat_round_trips_through_a_hand_button_and_link(chat: ChatRef) -> None:
    move = Move.play(Tile(6, 4), "L")
    assert codec.decode(codec.move_payload(GAME, 7, move, chat)) == codec.MovePress(
        GAME, 7, move, chat
    )
    assert codec.decode(codec.hand_link(GAME, chat)) == codec.HandLink(GAME, chat)


def test_a_steady_hands_words_and_every_tile_round_trip_through_its_buttons() -> None:
    chat = ChatRef("tg", "-100123")
    pressed: list[Tile | Move] = [*DOUBLE_SIX, DRAW, DONE]
    for what in pressed:
        action = codec.decode(codec.hand_payload(GAME, 77, what, chat))
        assert isinstance(action, codec.HandPress)
        assert (action.tile, action.move) == (
            (what, None) if isinstance(what, Tile) else (None, what)
        )
    with pytest.raises(ValueError):
        codec.hand_payload(GAME, 77, PASS, chat)


@pytest.mark.parametrize(
    "field", ["tg00", "tg212", "TG012", "tg012-", "tg012-3-4", "tg0", "tgxyzw012"]
)
def test_a_malformed_chat_field_is_refused(field: str) -> None:
    with pytest.raises(codec.BadPayload):
        codec.decode(f"1h_{GAME}_{field}")


def test_a_payload_fits_telegram_and_discord_and_deep_links() -> None:
    payloads = [codec.move_payload(GAME, 36**6, m) for m in every_move()]
    payloads += [codec.move_payload(GAME, 36**6, m, c) for m in every_move() for c in BIGGEST_CHATS]
    payloads += [
        codec.tiles_payload(GAME),
        codec.hand_link(GAME),
        *(codec.hand_link(GAME, c) for c in BIGGEST_CHATS),
        codec.next_deal_payload(GAME, 99),
        codec.setting_payload(GAME, 3, 1000),
        codec.setting_payload(GAME, "T", 300),
    ]
    payloads += [codec.lobby_payload(GAME, a) for a in codec.LOBBY_ACTIONS.values()]
    payloads += [codec.lobby_payload(GAME, "add_computer", "strong", "9" * 20)]
    for payload in payloads:
        assert len(payload.encode()) <= 64
        assert ALPHABET.fullmatch(payload), payload


def test_a_move_is_encoded_by_what_it_is_not_by_its_place_in_a_list() -> None:
    move = Move.play(Tile(6, 4), "R")
    assert payload_fields.encode_move(move) == f"p{payload_fields.DIGITS[Tile(6, 4).index]}R"


def test_every_legal_first_move_of_every_game_round_trips() -> None:
    for variant in all_variants():
        state = new_match(variant.name, variant.max_players, seed=3)
        for move in legal_moves(state):
            assert payload_fields.decode_move(payload_fields.encode_move(move)) == move


@pytest.mark.parametrize(
    "payload",
    [
        "",
        "1",
        "1m",
        "2m_k3j9x2ab_1_w",  # a version this codec does not know
        "1m_k3j9x2ab_1",  # no move
        "1m_K3J9X2AB_1_w",  # game ids are lower case
        "1m_k3j9x2a_1_w",  # short game id
        "1m_k3j9x2ab_-1_w",
        "1m_k3j9x2ab_1_pzL",  # no tile with index z
        "1m_k3j9x2ab_1_p0Q",  # no end Q
        "1m_k3j9x2ab_1_p1Nx",  # a lead across
        "1m_k3j9x2ab_1_p0Nf",  # a double flipped
        "1m_k3j9x2ab_1_p1Lf",  # only leads flip
        "1m_k3j9x2ab_1_d00",  # the same double twice
        "1m_k3j9x2ab_1_d01",  # not two doubles
        "1m_k3j9x2ab_1_r02",  # recover written lower double first
        "1q_k3j9x2ab",
        "1j_k3j9x2ab_extra",
        "1o_k3j9x2ab_T",
        "1t_k3j9x2ab_",
        "1m_k3j9x2ab_1_w_",
        "ü" * 10,
        "1m_k3j9x2ab_1_w" + "x" * 100,
    ],
)
def test_a_payload_the_codec_did_not_make_is_refused(payload: str) -> None:
    with pytest.raises(BadPayload):
        codec.decode(payload)


@given(st.text())
def test_any_text_decodes_or_is_refused_cleanly(text: str) -> None:
    try:
        decoded = codec.decode(text)
    except BadPayload:
        return
    assert isinstance(decoded, get_args(codec.Action))


@given(st.binary(max_size=80))
def test_any_bytes_decode_or_are_refused_cleanly(raw: bytes) -> None:
    with contextlib.suppress(BadPayload):
        assert isinstance(codec.decode(raw.decode("latin-1")), get_args(codec.Action))


def test_a_game_pick_names_the_game_and_round_trips() -> None:
    for variant in all_variants():
        payload = codec.variant_payload(variant.name)
        assert ALPHABET.fullmatch(payload) and len(payload.encode()) <= 64
        assert codec.decode(payload) == codec.VariantPick(variant.name)


@given(
    st.sampled_from(["tg", "dc", "con"]),
    st.integers(-(10**19), 10**19),
    st.one_of(st.none(), st.integers(0, 10**15)),
)
def test_any_numeric_chat_round_trips_through_a_payload_field(
    platform: str, number: int, thread: int | None
) -> None:
    chat = ChatRef(platform, str(number), None if thread is None else str(thread))
    field = payload_fields.encode_chat(chat)
    assert field is not None and payload_fields.decode_chat(field) == chat


def test_a_host_actions_button_names_the_host_and_only_his_press_needs_no_admin_check() -> None:
    start = codec.lobby_payload(GAME, "start", host="1234567")
    strong = codec.lobby_payload(GAME, "add_computer", "strong", "1234567")
    assert codec.decode(start) == codec.LobbyPress(GAME, "start", host="1234567")
    assert codec.decode(strong) == codec.LobbyPress(GAME, "add_computer", "strong", "1234567")
    assert not codec.needs_admin(start, "1234567")
    assert codec.needs_admin(start, "7654321")
    assert codec.needs_admin(codec.lobby_payload(GAME, "start"), "1234567")
    # Only host actions name the host, and only a user id that fits a payload.
    assert codec.lobby_payload(GAME, "join", host="1234567") == codec.lobby_payload(GAME, "join")
    assert codec.lobby_payload(GAME, "start", host="ann") == codec.lobby_payload(GAME, "start")
    with pytest.raises(codec.BadPayload):
        codec.decode(codec.lobby_payload(GAME, "start") + "_hann")


@pytest.mark.parametrize("review", [False, True])
def test_a_kept_matchs_replay_and_review_buttons_round_trip(review: bool) -> None:
    chat = ChatRef("tg", "-100123")
    here = codec.decode(codec.replay_payload("k3j9x2ab", review=review))
    named = codec.decode(codec.replay_payload("k3j9x2ab", chat, review=review))
    assert here == codec.ReplayPick("k3j9x2ab", None, review)
    assert named == codec.ReplayPick("k3j9x2ab", chat, review)
