"""Helpers for the panel trust tests: forged panel messages and what a refusal looks like."""

from __future__ import annotations

from typing import Any

import discord
import simcord

from tests.cogs.simworld import World, custom_ids

NOT_YOURS = "This panel belongs to a seat you don't hold"
# What alice's panel shows and nobody else may read: the prompt of her step, her drafted and
# stored guess (see the ``table`` fixture: she drafted and submitted a 4).
SECRETS = ("Guess the roll", "Your orders", "Your guess", "Still waiting", "Guess (")


def panel_parts(message: discord.Message) -> tuple[int, int, int]:
    """(campaign, step, seat) of a real panel message."""
    first = custom_ids(message)[0].split(":")
    return int(first[1]), int(first[2]), int(first[3])


def ids_for(cid: object, step: object, seat: object) -> list[str]:
    """One custom id per panel verb for that seat (buttons, then the Select)."""
    base = f"adm:{cid}:{step}:{seat}"
    return [f"{base}:open:0", f"{base}:back", f"{base}:page:0.1", f"{base}:sub:0",
            f"{base}:num:0.0.0", f"{base}:sel:0.0.0.0"]


def forged_view(ids: list[str], *, buttons_only: bool = False) -> discord.ui.View:
    """A view whose components carry the given custom ids (a Select for ':sel:' ids, with the
    guess rule set's options 1-6). Plain items: the panel item classes refuse to carry an id
    their template does not take, and a click is dispatched by its custom id alone."""
    view = discord.ui.View(timeout=None)
    for row, custom_id in enumerate(ids):
        if ":sel:" in custom_id and not buttons_only:
            select: discord.ui.Select[Any] = discord.ui.Select(
                custom_id=custom_id,
                options=[discord.SelectOption(label=n, value=n) for n in "123456"],
            )
            view.add_item(select)
        else:
            button: discord.ui.Button[Any] = discord.ui.Button(
                label=f"b{row}", custom_id=custom_id
            )
            view.add_item(button)
    return view


async def forge_dm(
    w: World, member: Any, ids: list[str], *, buttons_only: bool = False
) -> discord.Message:
    """A message from the bot in ``member``'s DM carrying the forged ids."""
    user = await w.env.bot.fetch_user(member.id)
    message = await user.send("forged", view=forged_view(ids, buttons_only=buttons_only))
    await w.env.settle()
    return message


async def forge_in(w: World, channel: simcord.ChannelHandle, ids: list[str]) -> discord.Message:
    """A message from the bot in a server channel carrying the forged ids."""
    target = w.env.bot.get_channel(channel.id)
    assert isinstance(target, discord.TextChannel)
    message = await target.send("forged", view=forged_view(ids))
    await w.env.settle()
    return message


async def press(
    clicker: Any, message: discord.Message, custom_id: str
) -> simcord.InteractionResult:
    """Click the button, or choose '2' in the Select, with that custom id."""
    if any(c.get("custom_id") == custom_id and c.get("type") == 3
           for row in _rows(message) for c in row):
        return await clicker.select(message, ["2"], custom_id=custom_id)
    return await clicker.click(message, custom_id=custom_id)


def answer_of(result: simcord.InteractionResult) -> Any:
    """The one message the bot answered with: the first follow-up after a defer (the
    response is then the panel message itself), else the response."""
    answer = result.followups[0] if result.followups else result.response
    assert answer is not None, result
    return answer


def assert_refused(result: simcord.InteractionResult, expected: str = NOT_YOURS) -> str:
    """Refused: ephemeral, the expected refusal, no apology, nothing of the seat shown."""
    answer = answer_of(result)
    assert answer.ephemeral, answer.content
    assert expected in answer.content, answer.content
    assert "Sorry, something went wrong" not in answer.content
    for secret in SECRETS:
        assert secret not in answer.content, (secret, answer.content)
    assert not answer.components, "a refusal carries no panel"
    return str(answer.content)


def _rows(message: Any) -> list[list[dict[str, Any]]]:
    return [[c.to_dict() for c in row.children] for row in message.components]
