"""The step tracker's name for the open FTCamp step (bot.rules.base.StepName)."""

from __future__ import annotations

from typing import Any

from bot.rules.base import Request, StepName
from bot.rules.ftcamp import geometry as geo
from bot.rules.ftcamp.model import State

NAMES = {"setup": "setup", "orders": "fleet orders", "special": "special acts",
         "engage": "engage orders", "allocate": "allocation", "chase": "chase decisions",
         "reserves": "reserves", "patrol": "patrol reserves"}


def step_name(state: Any, pending: list[Request]) -> StepName:
    """One tracker per hex's engage phase (orders, allocation, chase follow one another);
    the paged steps of a round share one across their pages."""
    st = State.model_validate(state)
    name = NAMES.get(st.step, st.step)
    if st.run is not None:
        where = geo.system_label(st.map, st.run.hex)
        return StepName(f"round-{st.round}-hex-{st.run.hex}",
                        f"Round {st.round}: {name} in hex {where}")
    return StepName(f"round-{st.round}-{st.step}", f"Round {st.round}: {name}")
