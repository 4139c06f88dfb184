"""The lobby's view of a table (who sits, how long idle) and a private table's invite."""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

from starlette.testclient import TestClient

from aceydeucey.server import service as service_module

from .conftest import new_table, seat


def test_a_private_seat_needs_the_invite_secret_and_the_refusal_is_coded(
    client: TestClient,
) -> None:
    made = client.post(
        "/api/tables",
        json={"game": "backgammon", "seats": ["human", "human"], "public": False},
    ).json()
    secret = parse_qs(urlparse(made["invite"]).query)["invite"][0]
    assert len(secret) >= 16 and secret not in str(made["table"])
    path = f"/api/tables/{made['id']}/seats/0"
    for refused in (path, f"{path}?invite=wrong"):
        r = client.post(refused, json={"name": "Eve"}, headers={"Accept-Language": "pt"})
        assert r.status_code == 403
        error = r.json()["error"]
        assert error["code"] == "server.invite_needed" and "privada" in error["message"]
    assert client.get(f"/api/tables/{made['id']}").json()["seats"][0]["taken"] is False
    r = client.post(f"{path}?invite={secret}", json={"name": "Ana"})
    assert r.status_code == 200 and r.json()["seat"] == 0


def test_a_public_table_invite_has_no_secret_and_seats_anyone(client: TestClient) -> None:
    made = client.post("/api/tables", json={"game": "backgammon", "seats": ["human", "human"]})
    assert "invite=" not in made.json()["invite"]
    seat(client, made.json()["id"], 1, "Bea")


def test_the_lobby_names_the_seats_and_says_how_long_each_table_is_idle(
    client: TestClient,
) -> None:
    # the bot deals, so Ana bets first and the game waits for her (a bot betting first may
    # win the whole pot and end the session at once)
    table = new_table(client, "inbetween", ["human", "bot:ev"], options={"players": 2, "dealer": 1})
    seat(client, table, 0, "Ana")
    row = {t["id"]: t for t in client.get("/api/tables").json()["tables"]}[table]
    assert [s["name"] for s in row["seats"]] == ["Ana", "bot:ev"]
    assert 0 <= row["idle_seconds"] < 60


def test_a_table_idle_past_the_limit_leaves_the_lobby(client: TestClient) -> None:
    table = new_table(client, "backgammon", ["human", "human"])
    service = client.app.state.service  # type: ignore[attr-defined]
    real = service.clock
    later = real() + service_module.LOBBY_IDLE_SECONDS + 5
    service.clock = lambda: later
    try:
        listed = {t["id"] for t in client.get("/api/tables").json()["tables"]}
    finally:
        service.clock = real
    assert table not in listed
    assert table in {t["id"] for t in client.get("/api/tables").json()["tables"]}


def test_a_private_rematch_keeps_the_seat_and_its_invite_carries_the_new_secret(
    client: TestClient,
) -> None:
    made = client.post(
        "/api/tables",
        json={"game": "backgammon", "seats": ["human", "human"], "public": False},
    ).json()
    secret = parse_qs(urlparse(made["invite"]).query)["invite"][0]
    path = f"/api/tables/{made['id']}"
    ana = client.post(f"{path}/seats/0?invite={secret}", json={"name": "Ana"}).json()["token"]
    client.post(f"{path}/seats/1?invite={secret}", json={"name": "Bea"})
    client.post(f"{path}/resign", headers={"Authorization": f"Bearer {ana}"})
    again = client.post(f"{path}/rematch", headers={"Authorization": f"Bearer {ana}"}).json()
    assert again["token"] and again["seat"] == 0
    new_secret = parse_qs(urlparse(again["invite"]).query)["invite"][0]
    assert new_secret != secret and "secret" not in again
    refused = client.post(f"/api/tables/{again['id']}/seats/1", json={"name": "Eve"})
    assert refused.status_code == 403
    bea = client.post(f"/api/tables/{again['id']}/seats/1?invite={new_secret}", json={"name": "B"})
    assert bea.status_code == 200
