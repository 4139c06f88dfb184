"""Hidden information on the wire: no message carries a card its receiver cannot see.

Seeded games over every option set that deals a card face down, with a socket for every
seat and one for a spectator, and the public log read between actions.  Once the game
is over its record is replayed offline: the cards a viewer may know at ``seq`` k are the
cards of its observations of the states up to k; every message a viewer received at
``seq`` k (and every public log read at k) must hold no other card.  The record itself
answers only once the game is over.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from aceydeucey.core.registry import load_game
from aceydeucey.server import lobby as lobby_module

from .conftest import bearer, new_table, settle, view

_CARD = re.compile(r'"([2-9TJQKA][CDHS])"')
_CARD_IN_TEXT = re.compile(r"\b([2-9TJQKA][CDHS])\b")

#: Option sets that deal a card face down (with five seats, so that passes are frequent).
FACE_DOWN: list[dict[str, Any]] = [
    {"hidden": True, "deal": "both-around", "players": 3, "rounds": 2},
    {"passed_card": "next-post", "aces": "first-card", "players": 5, "rounds": 2},
    {
        "hidden": True,
        "deal": "both-around",
        "pairs": "redeal",
        "adjacent": "redeal",
        "rounds": 2,
        "players": 4,
    },
]


def cards_in(value: Any) -> set[str]:
    """Every card named anywhere in a message: JSON strings, and words inside texts."""
    text = json.dumps(value)
    found = set(_CARD.findall(text))
    for string in re.findall(r'"((?:[^"\\]|\\.)*)"', text):
        found.update(_CARD_IN_TEXT.findall(string))
    return found


def drain(ws: Any, final_seq: int) -> Iterator[dict[str, Any]]:
    """Every message until the state at ``final_seq`` (bounded)."""
    for _ in range(5000):
        message: dict[str, Any] = ws.receive_json()
        yield message
        if message.get("type") == "state" and message.get("seq") == final_seq:
            return
    raise AssertionError("the final state never came")


def message_seq(message: dict[str, Any]) -> int:
    seqs = [e["seq"] for e in message.get("events") or [] if isinstance(e, dict)]
    if isinstance(message.get("seq"), int):
        seqs.append(message["seq"])
    return max(seqs)


def visible(
    record: dict[str, Any], viewers: list[int | None]
) -> tuple[dict[int | None, list[set[str]]], int]:
    """For each viewer, the cards it may know after each number of log entries; and how
    many cards were dealt that the public could not see at once."""
    game = load_game(record["game"], **record["rules"])
    state = game.new_initial_state()
    known: dict[int | None, set[str]] = {v: cards_in(state.observation(v)) for v in viewers}
    out = {v: [set(known[v])] for v in viewers}
    face_down = 0
    for action in record["actions"]:
        dealt = state.is_chance_node()
        state = state.apply(action)
        if dealt and action not in cards_in(state.observation(None)):
            face_down += 1
        for v in viewers:
            known[v] |= cards_in(state.observation(v))
            out[v].append(set(known[v]))
    return out, face_down


@pytest.mark.parametrize("options", FACE_DOWN, ids=lambda o: ",".join(map(str, o.values())))
def test_no_message_holds_a_card_its_receiver_cannot_see(
    client: TestClient, options: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    seeds = iter(bytes([i]) * 32 for i in range(1, 200))
    monkeypatch.setattr(lobby_module, "new_server_seed", lambda: next(seeds))
    rng = random.Random(7)
    face_down_deals = 0
    for game_no in range(3):
        n = options["players"]
        table_id = new_table(client, "inbetween", ["human"] * n, options=options)
        cutter = view(client, table_id)["fairness"]["cutter"]
        tokens: dict[int, str] = {}
        for s in range(n):
            r = client.post(
                f"/api/tables/{table_id}/seats/{s}",
                json={"name": f"p{s}", "cut": f"cut {game_no}" if s == cutter else None},
            )
            assert r.status_code == 200, r.text
            tokens[s] = r.json()["token"]
        viewers: list[int | None] = [*range(n), None]
        sockets = {
            v: client.websocket_connect(
                f"/ws/tables/{table_id}" + (f"?token={tokens[v]}" if v is not None else "")
            )
            for v in viewers
        }
        public_logs: list[tuple[int, Any]] = []
        with sockets[0], sockets[1], sockets[2], sockets[None]:
            extra = [sockets[v] for v in viewers if v not in (0, 1, 2, None)]
            for ws in extra:
                ws.__enter__()
            try:
                while True:
                    v = settle(client, table_id)
                    if v["status"] == "over":
                        break
                    assert client.get(f"/api/tables/{table_id}/record").status_code == 409
                    events = client.get(f"/api/tables/{table_id}/events").json()
                    public_logs.append((events["seq"], events))
                    who = v["to_act"]
                    legal = view(client, table_id, tokens[who])["observation"]["legal_actions"]
                    action = "pass" if "pass" in legal and rng.random() < 0.7 else rng.choice(legal)
                    r = client.post(
                        f"/api/tables/{table_id}/actions",
                        json={"action": action, "seq": v["seq"]},
                        headers=bearer(tokens[who]),
                    )
                    assert r.status_code == 200, r.text
                final = v["seq"]
                received = {viewer: list(drain(sockets[viewer], final)) for viewer in viewers}
            finally:
                for ws in extra:
                    ws.__exit__(None, None, None)
        record = client.get(f"/api/tables/{table_id}/record").json()
        assert record["fairness"]["server_seed"]  # revealed once over
        known, face_down = visible(record, viewers)
        public_now = known[None]
        face_down_deals += face_down
        for viewer in viewers:
            for message in received[viewer]:
                if message.get("type") not in ("state", "events", "ack"):
                    continue
                k = message_seq(message)
                leaked = cards_in(message) - known[viewer][k]
                assert not leaked, f"viewer {viewer} at seq {k} was sent {leaked}: {message}"
        for k, events in public_logs:
            leaked = cards_in(events) - public_now[k]
            assert not leaked, f"the public log at seq {k} shows {leaked}"
    assert face_down_deals > 0  # the games did deal cards face down
