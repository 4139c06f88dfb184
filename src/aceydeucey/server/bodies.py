"""The request bodies of the JSON API (pydantic models: validation and the OpenAPI schema)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field, field_validator

from aceydeucey.core.registry import game_ids

__all__ = ["Act", "ChatLine", "Claim", "CreateTable", "JoinSeat"]


# -- request bodies -------------------------------------------------------------------------
class CreateTable(BaseModel):
    """A new table: the game, its options (a preset plus overrides), who sits where."""

    game: str = Field(
        examples=["inbetween"], max_length=40, json_schema_extra={"enum": list(game_ids())}
    )
    options: dict[str, Any] = Field(
        default_factory=dict, examples=[{"preset": "guide", "players": 3}]
    )
    seats: list[str] | None = Field(
        default=None,
        description='One per seat: "human", "bot" (the default strategy) or "bot:NAME".',
        examples=[["human", "human", "bot:ev"]],
        max_length=16,
    )
    public: bool = Field(True, description="Listed in the lobby; private tables by invite only.")
    turn_seconds: int | None = Field(
        None, ge=5, le=86400, description="Turn timer per action (none: no timer)."
    )
    on_timeout: Literal["pass", "bot"] = Field(
        "pass",
        description="When the timer runs out: the seat passes (where it can) or a bot plays.",
    )
    hints: bool = Field(
        False,
        description="Backgammon: the seat to decide may ask for the best play "
        "(GET /api/tables/{id}/hint); those who sit down agree to it.",
    )
    claim_after: float | None = Field(
        None,
        ge=0,
        le=86400,
        description="Seconds away before an opponent may claim the seat (the server's "
        "minimum, 15 s by default, and up; none: the server's default).",
    )


class JoinSeat(BaseModel):
    name: str = Field(examples=["Ana"], min_length=1, max_length=64)
    cut: str | None = Field(
        None,
        max_length=256,
        description="Your cut (any text), when you hold the seat on the dealer's right.",
    )


class Act(BaseModel):
    action: str = Field(examples=["bet 2"], min_length=1, max_length=200)
    seq: int = Field(ge=0, description="The table's seq the action answers (from the last view).")
    id: str | int | None = Field(
        None,
        description="The client's own id for this action, echoed in the answer (or its error).",
        examples=["a-17"],
    )

    @field_validator("id")
    @classmethod
    def _short_id(cls, value: str | int | None) -> str | int | None:
        if isinstance(value, str) and len(value) > 64:
            raise ValueError("an id has at most 64 characters")
        if isinstance(value, int) and abs(value) >= 2**53:
            raise ValueError("an id is below 2**53")
        return value


class Claim(BaseModel):
    seat: int = Field(ge=0, le=64, description="The absent opponent's seat.")
    mode: Literal["win", "bot"] = Field(
        "bot", description='"win": end the game as won (two seats); "bot": a bot takes the seat.'
    )


class ChatLine(BaseModel):
    text: str = Field(min_length=1, max_length=2000, examples=["good luck!"])
