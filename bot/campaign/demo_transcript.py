"""A demo's transcript (bot/campaign/demo.py): the drained outbox as Markdown files, one per
destination (``channel.md``, ``gm.md``, ``dm-<player>.md``), with its pictures beside them and
``summary.md``; each edited message in its final form, where it was posted."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

from bot.campaign.demo_record import CHANNEL_ID, GM_USER_ID, DemoResult
from bot.campaign.models import OutboxMessage
from bot.rules import embed_limits
from bot.rules.base import Embed

_OWN_FILES = re.compile(r"^(channel|gm|summary|dm-[a-z0-9-]+)\.md$|^img-\d+-.*")
_TIMESTAMP = re.compile(r"<t:(-?\d+)(?::[tTdDfFR])?>")
# "<t:N:f> (<t:N:R>)": both are the same moment in a transcript
_FULL_TIMESTAMP = re.compile(r"<t:(-?\d+):f> \(<t:\1:R>\)")
_MENTION = re.compile(r"<@(\d+)>")


def _readable_times(text: str) -> str:
    """Discord timestamps (``<t:...:R>``) as plain UTC times: a transcript has no reader's zone."""
    text = _FULL_TIMESTAMP.sub(lambda m: f"<t:{m.group(1)}:f>", text)
    return _TIMESTAMP.sub(
        lambda m: datetime.fromtimestamp(int(m.group(1)), UTC).strftime("%a %d %b %H:%M UTC"),
        text,
    )


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "player"


class Transcript:
    """Collects the drained outbox as Markdown files and pictures in one folder."""

    def __init__(self, folder: Path, result: DemoResult, names: dict[int, str]) -> None:
        self.folder = folder
        self.result = result
        self.names = names  # user id -> player name (the GM included)
        self.pages: dict[str, list[str]] = {"channel.md": [], "gm.md": []}
        self.titles = {"channel.md": "the campaign channel", "gm.md": "messages to the GM"}
        self._last_time: dict[str, datetime] = {}
        self._image_no = 0
        # outbox id of a sent message -> (page, index of its text line): an edit rewrites it
        self._placed: dict[int, tuple[str, int]] = {}
        # a DM's versions: what it shows now, and what it showed before (one line each)
        self._shown: dict[int, str] = {}
        self._earlier: dict[int, list[str]] = {}
        self._images: dict[int, list[str]] = {}  # outbox id of a post -> its picture files
        self._panels: dict[str, set[int]] = {}  # per player: messages showing a panel

    def _readable(self, text: str) -> str:
        text = _MENTION.sub(lambda m: "@" + self.names.get(int(m.group(1)), m.group(1)), text)
        return _readable_times(text.rstrip()) or "(no text)"

    def _page(self, message: OutboxMessage) -> str:
        """Which file a message goes to, counting it in the result."""
        if message.kind == "channel":
            self.result.channel_posts += 1
            return "channel.md"
        if message.user_id == GM_USER_ID:
            self.result.gm_posts += 1
            return "gm.md"
        name = self.names.get(message.user_id or 0, f"user {message.user_id}")
        self.result.dms[name] = self.result.dms.get(name, 0) + 1
        page = f"dm-{_slug(name)}.md"
        self.titles[page] = f"direct messages to {name}"
        return page

    def add(self, message: OutboxMessage, when: datetime, panel_note: str,
            files: list[tuple[str, bytes]]) -> None:
        if self.result.recording is not None:
            self.result.recording.sent.append(message)
        if message.kind == "dm" and message.panel is not None and message.user_id != GM_USER_ID:
            self.result.panels_asked += 1
        if message.kind == "dm" and message.user_id != GM_USER_ID:
            self._count_panels(message)
        if message.edit_of is not None and message.edit_of in self._placed:
            # the transcript shows each edited message in its final form, where it was posted;
            # under a DM, what it showed before (its earlier panels: none is lost)
            page, index = self._placed[message.edit_of]
            # an edit that carries pictures shows them instead of the earlier version's
            self._drop_images(message.edit_of if files else None)
            body = self._body(message, panel_note, files, message.edit_of)
            if message.kind == "dm":
                earlier = self._earlier.setdefault(message.edit_of, [])
                earlier.append(self._shown.get(message.edit_of, ""))
                self._shown[message.edit_of] = self._gist(message, panel_note)
                body += "\n\n" + "\n".join(
                    f"> {e} (an earlier version of this message)" if e.startswith("panel for")
                    else f"> earlier version: {e}" for e in earlier if e)
            self.pages[page][index] = body
            self._count_edit(message)
            return
        page = self._page(message)
        lines = self.pages.setdefault(page, [])
        # A time heading only when the time moved: most messages of a step share one moment.
        if self._last_time.get(page) != when:
            self._last_time[page] = when
            lines += [f"## {when:%a %d %b %H:%M} UTC", ""]
        if message.kind == "channel" and message.channel_id != CHANNEL_ID:
            lines += [f"*(in channel {message.channel_id})*", ""]
        self._placed[message.id] = (page, len(lines))  # an edit rewrites this entry
        self._shown[message.id] = self._gist(message, panel_note)
        lines += [self._body(message, panel_note, files, message.id), "", "---", ""]

    def _count_panels(self, message: OutboxMessage) -> None:
        """Which of the player's DM messages show a panel now (an edit without one takes
        it off); the most at one time goes into the result."""
        name = self.names.get(message.user_id or 0, f"user {message.user_id}")
        live = self._panels.setdefault(name, set())
        first = message.edit_of or message.id
        if message.panel is not None:
            live.add(first)
        else:
            live.discard(first)
        self.result.most_panels[name] = max(self.result.most_panels.get(name, 0), len(live))

    def _gist(self, message: OutboxMessage, panel_note: str) -> str:
        """A DM version in one line, for the list under its final form."""
        if panel_note:
            return panel_note
        first = self._readable(message.content).split("\n")[0]
        return first if len(first) <= 120 else first[:119] + "…"

    def _count_edit(self, message: OutboxMessage) -> None:
        if message.kind == "channel":
            self.result.channel_edits += 1
        elif message.user_id == GM_USER_ID:
            self.result.gm_edits += 1
        else:
            self.result.dm_edits += 1

    def _drop_images(self, placed: int | None) -> None:
        for file_name in self._images.pop(placed, []) if placed is not None else []:
            self.result.images.remove(file_name)
            (self.folder / file_name).unlink(missing_ok=True)

    def _body(self, message: OutboxMessage, panel_note: str,
              files: list[tuple[str, bytes]], placed: int) -> str:
        """One message as shown: its text, embeds, pictures and the panel under it."""
        lines: list[str] = []
        text = self._readable(message.content) if message.content.strip() else ""
        if text or not message.embeds:
            lines += [text or "(no text)", ""]
        pictures = dict(files)
        for embed in message.embeds:
            # an embed as a quoted block, its picture inside it, as Discord shows it
            plain = embed_limits.as_text(Embed.model_validate({**embed, "image": False}))
            quoted = self._readable(plain).split("\n")
            if embed.get("image") in pictures:
                quoted += ["", self._image(embed["image"], pictures.pop(embed["image"]),
                                           placed)]
            lines += [f"> {line}".rstrip() for line in quoted] + [""]
        for name, data in pictures.items():
            lines += [self._image(name, data, placed), ""]
        if panel_note:
            lines += [f"> {panel_note}", ""]
        return "\n".join(lines).rstrip("\n")

    def _image(self, name: str, data: bytes, placed: int) -> str:
        """Writes a picture next to the transcript; the Markdown that shows it."""
        self._image_no += 1
        file_name = f"img-{self._image_no:03d}-{_slug(Path(name).stem)}{Path(name).suffix}"
        (self.folder / file_name).write_bytes(data)
        self.result.images.append(file_name)
        self._images.setdefault(placed, []).append(file_name)
        return f"![{name}]({file_name})"

    def write(self) -> None:
        title = f"Demo of {self.result.ruleset}, seed {self.result.seed}"
        files = {
            page: [f"# {title}: {self.titles[page]}", "", *lines]
            for page, lines in self.pages.items()
        }
        files["summary.md"] = [f"# {title}: summary", "", "```", self.result.summary(), "```"]
        for name, lines in files.items():
            (self.folder / name).write_text("\n".join(lines) + "\n", encoding="utf-8")


def prepare_folder(folder: Path) -> None:
    """Creates the folder and removes a previous demo's files (and only those)."""
    folder.mkdir(parents=True, exist_ok=True)
    for entry in folder.iterdir():
        if entry.is_file() and _OWN_FILES.match(entry.name):
            entry.unlink()
