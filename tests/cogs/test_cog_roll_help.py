"""/roll and /help."""

from __future__ import annotations

from pathlib import Path

from tests.cogs.simworld import World


async def test_roll_is_public_and_shows_every_die(world: World) -> None:
    result = await world.alice.slash(world.chan, "roll", expression="2d6kh1+3")
    assert not result.ephemeral
    # The scripted dice give 5 then 2: keep the 5, strike the 2.
    assert result.response.content.endswith("2d6kh1+3: [5, ~~2~~] + 3 = **8**")
    assert world.alice.mention in result.response.content


async def test_roll_works_in_a_dm(world: World) -> None:
    result = await world.alice.user.slash("roll", expression="d20")
    assert "1d20: [5] = **5**" in result.response.content


async def test_a_bad_expression_is_refused_with_the_allowed_forms(world: World) -> None:
    result = await world.alice.slash(world.chan, "roll", expression="2d6!")
    assert result.ephemeral
    assert "Allowed" in result.response.content and "NdS" in result.response.content
    assert world.chan.last_message is None


async def test_help_is_ephemeral_and_covers_the_commands(world: World) -> None:
    result = await world.alice.slash(world.chan, "help")
    assert result.ephemeral
    for word in ("/campaign create", "/campaign join", "/orders", "/gm", "/roll", "guess"):
        assert word in result.response.content


async def test_help_for_a_ruleset_uses_its_help_text(world: World) -> None:
    result = await world.alice.slash(world.chan, "help", ruleset="guess")
    assert result.ephemeral
    assert "Guess the d6; closest scores." in result.response.content
    choices = await world.alice.autocomplete(world.chan, "help", "ruleset", "gu")
    assert [c["value"] for c in choices] == ["guess"]


async def test_ftcamp_help_starts_with_loading_a_scenario(world: World) -> None:
    # E-D45: a new GM learns of /ftcamp load before the built-in example starts silently
    result = await world.gm.slash(world.chan, "help", ruleset="ftcamp")
    first = result.response.content.split("\n")[:3]
    assert any("/ftcamp load" in line for line in first), first
    assert "built-in example" in result.response.content


def test_every_command_and_option_has_a_description(tmp_path: Path) -> None:
    import asyncio

    from bot.client import COGS
    from tests.cogs.conftest import new_bot

    async def load() -> list[dict[str, object]]:
        bot = new_bot(tmp_path / "tree.db")
        await bot.open_service()  # the cogs are built with it
        try:
            for name in COGS:
                await bot.load_extension(name)
            return [c.to_dict(bot.tree) for c in bot.tree.get_commands()]
        finally:
            await bot.db.close()

    payloads = asyncio.run(load())
    assert {"campaign", "orders", "gm", "roll", "help"} <= {p["name"] for p in payloads}

    def walk(node: dict[str, object]) -> None:
        assert node.get("description") and node["description"] != "…", node["name"]
        for child in node.get("options", []) or []:  # type: ignore[union-attr]
            walk(child)  # type: ignore[arg-type]

    for payload in payloads:
        walk(payload)
