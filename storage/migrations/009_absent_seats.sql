-- 009: absent players (issue 15, item 4; P-25..P-29).
-- `away`: the seat missed `away_after` deadlines in a row (civil disorder): its steps take
-- the default at once instead of waiting for the deadline, and it gets no reminders. The row
-- goes (and the seat is back) the moment its player acts, as the run of misses does.
ALTER TABLE missed_deadlines ADD COLUMN away INTEGER NOT NULL DEFAULT 0;
-- `note`: what was taken for the seat at the deadlines it missed, said in its next panel
-- (never a DM of its own); JSON list of lines, cleared once shown.
ALTER TABLE missed_deadlines ADD COLUMN note TEXT;

-- `notified_at`: when the seat's holder last got a NEW DM (one that notifies) from this
-- campaign. A holder who has not acted since gets the next request as an edit of their
-- panel message, never a second notifying DM.
ALTER TABLE dm_panels ADD COLUMN notified_at REAL;

-- The GM's digest of missed deadlines: lines waiting to go out in at most one DM a day per
-- campaign (the first miss, the warning and a seat going away are told at once instead).
-- `told_at`: the GM's last DM about missed deadlines (the day counts from it).
CREATE TABLE gm_digests (
    campaign_id INTEGER PRIMARY KEY REFERENCES campaigns(id) ON DELETE CASCADE,
    lines       TEXT    NOT NULL DEFAULT '[]',
    told_at     REAL
);
