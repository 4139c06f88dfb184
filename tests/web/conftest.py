"""A real server for the browser tests: uvicorn on a free loopback port, a fresh SQLite file.

``live_server`` is the base URL; ``browser`` is Debian's Chromium driven by Playwright
(never a downloaded browser); ``artifacts`` is the folder the screenshots go to (its
path is printed): ``$ACEYDEUCEY_ARTIFACTS`` when set (``$ACEYDEUCEY_SCREENSHOTS``, its older
name, too), else pytest's temporary folder.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SRC = Path(__file__).resolve().parents[2] / "src"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("web-server")
    port = _free_port()
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite+aiosqlite:///{folder / 'tables.sqlite3'}",
        "PYTHONPATH": os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")]),
        "ACEYDEUCEY_BOT_DELAY": "0",
        "ACEYDEUCEY_MIN_CLAIM_AFTER": "0",  # a claim test does not wait the default 15 s
    }
    env.pop("REDIS_URL", None)
    log = (folder / "server.log").open("w")
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "uvicorn",
            "--factory",
            "aceydeucey.server.app:factory",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
        ],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            if httpx.get(url + "/api/games", timeout=2).status_code == 200:
                break
        except httpx.HTTPError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            raise RuntimeError((folder / "server.log").read_text())
        time.sleep(0.2)
    try:
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"the browser tests need Debian's Chromium at {CHROMIUM}")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


_ARTIFACTS: list[Path] = []


@pytest.fixture(scope="session")
def artifacts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # a CI's artifacts folder, say
    given = os.environ.get("ACEYDEUCEY_ARTIFACTS") or os.environ.get("ACEYDEUCEY_SCREENSHOTS")
    folder = Path(given) if given else tmp_path_factory.mktemp("web-artifacts")
    folder.mkdir(parents=True, exist_ok=True)
    print(f"\nbrowser test screenshots: {folder}")
    _ARTIFACTS.append(folder)
    return folder


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Name the screenshots' folder at the end of every run that took some."""
    for folder in _ARTIFACTS:
        shots = len(list(folder.glob("*.png")))
        terminalreporter.write_line(f"browser test screenshots ({shots}): {folder}")


@pytest.fixture(scope="session")
def api(live_server: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=live_server, timeout=10) as client:
        yield client


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test that drives Chromium (the ``browser`` fixture) is in the ``browser`` lane."""
    for item in items:
        if "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.browser)
