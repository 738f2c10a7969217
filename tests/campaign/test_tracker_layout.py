"""The tracker's layout of one intent's public output (bot/campaign/tracker.py, issue 10
item 4): the channel reads top to bottom, no line is lost."""

from __future__ import annotations

from bot.campaign.tracker import CONTINUED, Layout, Tracker


def posted(key: str = "turn-3", title: str = "Turn 3: deployment") -> Tracker:
    t = Tracker(key, title, "Sol", outbox_id=7, owed=["<@1>"], owed_seats=[1])
    t.lines = ["Alice passes."]
    return t


def test_lines_after_a_post_go_on_in_a_new_tracker_below_it() -> None:
    cur = posted()
    layout = Layout(sink=cur, live=cur)
    assert layout.line("Bob passes.")  # above the post: the tracker posted earlier
    layout.post(["<battle card>"])
    assert layout.line("Carol passes.")
    layout.finish("Turn 3: deployment")
    old, card, nxt = layout.out
    assert old is cur and card == "<battle card>" and isinstance(nxt, Tracker)
    assert cur.lines == ["Alice passes.", "Bob passes.", CONTINUED]
    assert cur.owed == [] and cur.deadline is None  # who is owed is said below now
    assert nxt.outbox_id is None and nxt.lines == ["Carol passes."]  # a new message
    assert nxt.owed == ["<@1>"] and layout.live is nxt  # kept for the next intents
    assert not nxt.passed and cur.passed


def test_a_tracker_passed_in_an_earlier_intent_takes_no_more_lines() -> None:
    cur = posted()
    cur.passed = True  # stored: a reveal went out below it before
    layout = Layout(sink=cur, live=cur)
    layout.line("Bob passes.")
    layout.finish("Turn 3: deployment")
    assert [type(x).__name__ for x in layout.out] == ["Tracker", "Tracker"]
    assert cur.lines[-1] == CONTINUED and layout.out[1].lines == ["Bob passes."]
    assert Tracker.from_data("k", 1, cur.data()).passed  # survives a restart


def test_a_step_that_moves_on_below_a_post_opens_a_status_tracker_below() -> None:
    cur = posted()
    layout = Layout(sink=cur, live=cur)
    layout.post(["<battle card>"])
    layout.finish("Turn 3: battle at Orbit 1, losses")
    # (cur was posted before this intent: where its edit is listed does not move it)
    assert layout.out[0] == "<battle card>" and layout.out[1] is cur
    assert layout.live is layout.out[2] and cur.lines[-1] == CONTINUED
    assert layout.live.lines == [] and layout.live.owed == ["<@1>"]


def test_without_posts_the_tracker_is_only_edited() -> None:
    cur = posted()
    layout = Layout(sink=cur, live=cur)
    layout.line("Bob passes.")
    layout.finish("Turn 3: battle at Orbit 1, losses")  # no post below: edited in place
    assert layout.out == [cur] and CONTINUED not in cur.lines and layout.live is cur


def test_a_new_steps_tracker_opens_where_its_first_line_is() -> None:
    """The old step's last lines after a post lead into the new step's tracker, posted
    there (not after the later posts of the intent)."""
    cur = posted()
    cur.passed = True
    new = Tracker("turn-4", "Turn 4: transit", "Sol")
    layout = Layout(sink=cur, live=new, closing=cur, new=new)
    layout.line("**Turn 4** begins.")
    layout.post(["<map>"])
    layout.line("Alice sends 1 card.")
    layout.finish("Turn 4: transit")
    assert layout.out[0] is cur and cur.owed == [] and CONTINUED not in cur.lines
    assert layout.out[1] is new and new.lines == ["**Turn 4** begins.", CONTINUED]
    assert layout.out[2] == "<map>"
    last = layout.out[3]
    assert isinstance(last, Tracker) and last.lines == ["Alice sends 1 card."]
    assert layout.live is last and last.outbox_id is None
