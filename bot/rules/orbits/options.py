"""Campaign options of the Orbits rule set (every option a ruling names)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class OrbitsOptions(BaseModel):
    """Settings agreed before the start; defaults are the rulings' defaults."""

    model_config = ConfigDict(extra="forbid")

    orbits: int = Field(default=3, ge=1, le=8, description="outer orbits")
    suit: Literal["S", "H", "D", "C"] = Field(
        default="S", description="suit of the starting face cards"
    )
    target_rp: int = Field(default=100, ge=1, le=10_000, description="RP to win")
    home_to_home: int = Field(default=1, ge=1, le=20, description="distance home to home")
    size_class_cap: int = Field(default=5, ge=1, le=10, description="max size class")
    points_per_value: int = Field(
        default=1, ge=1, le=1000, description="battle points per card value"
    )
    points_label: str = Field(
        default="system boxes", min_length=1, max_length=40, description="unit name"
    )
    mark_known_cards: bool = Field(
        default=True, description="public view marks face-down cards seen face up"
    )
    rush_transit: bool = Field(default=False, description="pay 1 RP to cut a token")
    raid_colonies: bool = Field(
        default=False, description="battle winner makes the loser discard a face card"
    )
