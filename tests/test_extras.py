"""A feature whose optional dependency is missing says which extra installs it."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from aceydeucey import extras
from aceydeucey.cli.app import app
from aceydeucey.core.errors import ArgumentError

runner = CliRunner()


@pytest.fixture
def without(monkeypatch: pytest.MonkeyPatch) -> Any:
    """Make the named modules look uninstalled to ``extras.require``."""
    real = importlib.util.find_spec

    def hide(*modules: str) -> None:
        monkeypatch.setattr(
            extras, "find_spec", lambda name: None if name in modules else real(name)
        )

    return hide


def test_every_extra_named_is_declared_in_the_package() -> None:
    import tomllib

    pyproject = tomllib.loads((Path(__file__).parent.parent / "pyproject.toml").read_text())
    declared = pyproject["project"]["optional-dependencies"]
    for module, extra in extras.EXTRAS.items():
        assert any(req.split(">")[0].replace("-", "_") == module for req in declared[extra])


def test_a_missing_module_is_a_coded_error_naming_the_command(without: Any) -> None:
    extras.require("matplotlib", "--plot")  # installed: nothing to say
    without("matplotlib")
    with pytest.raises(ArgumentError) as caught:
        extras.require("matplotlib", "--plot")
    assert caught.value.code == "extra.missing"
    assert "pip install 'aceydeucey[plot]'" in caught.value.render("en")
    assert "não está instalado" in caught.value.render("pt")


@pytest.mark.parametrize("lang", ["en", "pt"])
def test_plot_without_matplotlib_is_refused_before_the_run(
    without: Any, tmp_path: Path, lang: str
) -> None:
    without("matplotlib")
    out = tmp_path / "chart.png"
    for args in (
        ["simulate", "inbetween", "--sessions", "10", "--plot", str(out)],
        ["analyze", "aces-in-the-pot", "-n", "3", "--plot", str(out)],
    ):
        result = runner.invoke(app, [*args, "--lang", lang])
        assert result.exit_code == 2, result.output
        assert "aceydeucey[plot]" in " ".join(result.output.split())
        assert not out.exists()


def test_serve_on_postgresql_without_its_driver_says_so(without: Any) -> None:
    without("asyncpg", "redis")
    result = runner.invoke(
        app, ["serve", "--database", "postgresql+asyncpg://u@127.0.0.1:1/x", "--lang", "en"]
    )
    assert result.exit_code == 2
    assert "aceydeucey[server]" in " ".join(result.output.split())
    result = runner.invoke(
        app,
        ["serve", "--database", "sqlite+aiosqlite:///:memory:", "--redis", "redis://x"],
    )
    assert result.exit_code == 2
    assert "redis" in result.output and "aceydeucey[server]" in " ".join(result.output.split())
