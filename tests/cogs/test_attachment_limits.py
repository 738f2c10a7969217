"""Uploads are size-checked before they are downloaded (read_attachment), and files that
would crash or stall a parser get a plain ephemeral refusal through Discord, nothing added."""

from __future__ import annotations

import json

import pytest
import simcord

from bot.errors import InvalidInput
from cogs.common import read_attachment
from tests.cogs.simworld import World, texts
from tests.cogs.test_battle_thread import said, thread_of
from tests.rules.hrft.fixtures import design


class FakeAttachment:
    """What read_attachment uses of a discord.Attachment; counts downloads."""

    def __init__(self, size: int, data: bytes, filename: str = "fleet.json") -> None:
        self.size, self.data, self.filename, self.reads = size, data, filename, 0

    async def read(self) -> bytes:
        self.reads += 1
        return self.data


async def test_an_announced_size_over_the_limit_is_refused_before_reading() -> None:
    big = FakeAttachment(size=300_000, data=b"")
    with pytest.raises(InvalidInput) as info:
        await read_attachment(big, 200_000)  # type: ignore[arg-type]
    assert info.value.message == "'fleet.json' is 300 kB; at most 200 kB is allowed."
    assert big.reads == 0


async def test_content_larger_than_announced_is_refused_after_reading() -> None:
    liar = FakeAttachment(size=10, data=b"x" * 200_001)
    with pytest.raises(InvalidInput, match="at most 200 kB"):
        await read_attachment(liar, 200_000)  # type: ignore[arg-type]
    fine = FakeAttachment(size=5, data=b"hello")
    assert await read_attachment(fine, 200_000) == b"hello"  # type: ignore[arg-type]


async def battle_thread(w: World) -> simcord.ChannelHandle:
    await w.gm.slash(w.chan, "battle start", name="Uploads")
    thread = thread_of(w)
    await w.alice.slash(thread, "battle join")
    await w.bob.slash(thread, "battle join")
    await w.gm.slash(thread, "battle begin")
    return thread


@pytest.mark.parametrize(("name", "data", "expected"), [
    ("big.FTFleet", b" " * 250_000, "'big.FTFleet' is 250 kB; at most 200 kB is allowed."),
    ("deep.json", b"[" * 50_000 + b"]" * 50_000, "'deep.json' is nested too deeply"),
    ("huge.json", ('{"tmf": ' + "9" * 5000 + "}").encode(), "at most 15 digits"),
    ("utf16.toml", "name = 'x'".encode("utf-16"), "UTF-16 text; save it as UTF-8"),
    ("monster.FTDesign", json.dumps(design(hull=10**7, armour=10**7, mass=10**7)).encode(),
     "MASS ('tmf') must be a whole number from 1 to 400"),
])
async def test_battle_add_refuses_bad_files_plainly(
    world: World, name: str, data: bytes, expected: str
) -> None:
    w = world
    thread = await battle_thread(w)
    result = await w.alice.slash(thread, "battle add", file=(name, data))
    assert result.ephemeral and expected in said(result), said(result)
    assert "Sorry" not in said(result)  # not the generic apology
    assert "(1a)" not in "\n".join(texts(thread))  # no ship was added


async def test_ftcamp_load_refuses_oversize_and_deep_files_and_loads_nothing(
    world: World
) -> None:
    w = world
    await w.gm.slash(w.chan, "campaign create", ruleset="ftcamp", name="Border War")
    big = await w.gm.slash(w.chan, "ftcamp load", file=("big.toml", b"#" * 200_001))
    assert big.ephemeral and "'big.toml' is 201 kB; at most 200 kB is allowed." in \
        big.response.content
    deep = await w.gm.slash(w.chan, "ftcamp load",
                            file=("deep.toml", b"a" + b".a" * 30_000 + b" = 1"))
    assert deep.ephemeral and "nested too deeply" in deep.response.content
    huge = await w.gm.slash(w.chan, "ftcamp load",
                            file=("huge.toml", b"x = " + b"9" * 5000))
    assert huge.ephemeral and "too many digits" in huge.response.content
    assert "Loaded" not in "\n".join(texts(w.chan))
    shown = await w.gm.slash(w.chan, "campaign settings", key="scenario")
    assert "9999" not in said(shown) and "a.a.a" not in said(shown)
