-- 004: step trackers. A tracker is ONE channel message per step (or per game turn) that the
-- bot posts when the step opens and then edits as it goes.
-- `edit_of` marks an outbox row as an EDIT of the message sent by another row (the
-- tracker's first post): it goes to the same destination, so it keeps its place in that
-- destination's queue (an edit enqueued before its original was sent waits for it), and the
-- dispatcher edits the Discord message whose id the original row recorded.
-- `trackers` holds each campaign's current tracker: its key (which steps share it), the
-- outbox row of its first post, and what it shows (JSON: title, lines, who acted, ...).
ALTER TABLE outbox ADD COLUMN edit_of INTEGER REFERENCES outbox(id);

CREATE INDEX outbox_pending_edits ON outbox(edit_of) WHERE status = 'pending';

CREATE TABLE trackers (
    campaign_id INTEGER PRIMARY KEY REFERENCES campaigns(id) ON DELETE CASCADE,
    key         TEXT    NOT NULL,
    outbox_id   INTEGER NOT NULL REFERENCES outbox(id),
    data        TEXT    NOT NULL
);

-- deadlines a seat missed in a row (a default was taken for it); cleared when it acts
CREATE TABLE missed_deadlines (
    campaign_id INTEGER NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
    seat        INTEGER NOT NULL,
    in_row      INTEGER NOT NULL,
    PRIMARY KEY (campaign_id, seat)
);
