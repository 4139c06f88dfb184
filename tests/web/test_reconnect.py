"""A server killed under an open table page: the page reconnects by itself once the server
is back, and play continues from where it stood (nothing lost, nothing applied twice)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from .conftest import SRC, _free_port

pytestmark = [pytest.mark.slow, pytest.mark.filterwarnings("ignore::DeprecationWarning")]


@contextmanager
def serving(db: Path, port: int, log: Path) -> Iterator[subprocess.Popen[bytes]]:
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite+aiosqlite:///{db}",
        "PYTHONPATH": os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")]),
        "ACEYDEUCEY_BOT_DELAY": "0",
    }
    env.pop("REDIS_URL", None)
    with log.open("ab") as out:
        proc = subprocess.Popen(
            [
                *(sys.executable, "-m", "uvicorn", "--factory", "aceydeucey.server.app:factory"),
                *("--host", "127.0.0.1", "--port", str(port)),
            ],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        for _ in range(300):
            try:
                if httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert proc.poll() is None, log.read_text()
            time.sleep(0.1)
        yield proc
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def roll(page: Any) -> int:
    """Press the page's action button (the throw) and wait for the table to move on."""
    page.wait_for_selector("#controls [data-action]", timeout=30_000)
    seq = int(page.evaluate("aceydeucey.seq"))
    page.click("#controls [data-action]")
    page.wait_for_function(f"aceydeucey.seq > {seq}", timeout=30_000)
    return seq


def test_the_page_reconnects_by_itself_after_the_server_is_killed(
    browser: Any, tmp_path: Path
) -> None:
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    db, log = tmp_path / "tables.sqlite3", tmp_path / "server.log"
    with serving(db, port, log) as proc:
        made = httpx.post(
            f"{base}/api/tables",
            json={
                "game": "aces-in-the-pot",
                "options": {"players": 3},
                "seats": ["human", "bot", "bot"],
            },
        )
        tid = made.json()["id"]
        token = httpx.post(f"{base}/api/tables/{tid}/seats/0", json={"name": "Ana"}).json()["token"]
        ctx = browser.new_context(bypass_csp=True)
        ctx.add_init_script("try { localStorage.setItem('pace', 'fast'); } catch {}")
        ctx.add_cookies([{"name": f"seat_{tid}", "value": token, "url": base}])
        page = ctx.new_page()
        page.goto(f"{base}/tables/{tid}")
        page.wait_for_selector("#board .dice-row")
        roll(page)
        page.wait_for_selector("#controls [data-action]", timeout=30_000)  # Ana's turn again
        before = httpx.get(f"{base}/api/tables/{tid}/events").json()["events"]
        assert int(page.evaluate("aceydeucey.seq")) == before[-1]["seq"]
        proc.kill()  # no clean shutdown: the page's socket drops
        proc.wait()
    time.sleep(1.0)
    mark = log.stat().st_size
    with serving(db, port, log):
        after = httpx.get(f"{base}/api/tables/{tid}/events").json()["events"]
        assert after == before  # nothing lost
        seq = roll(page)  # the page found the server again by itself: play continues
        assert seq == before[-1]["seq"]
        events = httpx.get(f"{base}/api/tables/{tid}/events").json()["events"]
        assert events[: len(before)] == before
        assert sum(1 for e in events if e["seq"] == seq + 1) == 1  # applied once
        # the bots' moves after the throw reach the page over its new socket
        final = httpx.get(f"{base}/api/tables/{tid}").json()
        page.wait_for_function(f"aceydeucey.seq >= {final['seq']}", timeout=30_000)
        for _ in range(100):  # the page opened its socket again on the new server
            with log.open("rb") as f:
                f.seek(mark)
                if b"/ws/tables/" in f.read():
                    break
            time.sleep(0.1)
        else:
            raise AssertionError("the page never opened a socket on the restarted server")
        ctx.close()
