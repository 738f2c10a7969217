-- 006: each seat's DM panel message. A player who has been active lately gets their next
-- request as an EDIT of this message (outbox `edit_of` = `outbox_id`, the row of its first
-- post) instead of a new DM; an idle one gets a new DM, which becomes the seat's panel
-- message. `active_at`: the holder's last submission or panel choice in this campaign;
-- `step_no`: the step whose panel the message was last given (a click on an older step's
-- panel must not overwrite it).
CREATE TABLE dm_panels (
    campaign_id INTEGER NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
    seat        INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    outbox_id   INTEGER REFERENCES outbox(id),
    step_no     INTEGER NOT NULL DEFAULT 0,
    active_at   REAL,
    PRIMARY KEY (campaign_id, seat)
);

-- "is the panel still the latest DM to that user?" (news moves the panel below it)
CREATE INDEX outbox_dm_user ON outbox(user_id, id) WHERE kind = 'dm';

-- which bot message a click came from (a panel's own reply must not overwrite a newer edit)
CREATE INDEX outbox_dm_message ON outbox(discord_message_id) WHERE kind = 'dm';
-- the edits of a message, sent ones included (panels are edited far more than trackers)
CREATE INDEX outbox_edits ON outbox(edit_of) WHERE edit_of IS NOT NULL;
