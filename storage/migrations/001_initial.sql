-- 001: campaigns, seats, sealed submissions, drafts, event log, undo snapshots, outbox,
-- deadlines and reminders. Times are UTC epoch seconds (REAL); JSON columns hold TEXT.

CREATE TABLE campaigns (
    id              INTEGER PRIMARY KEY,
    guild_id        INTEGER NOT NULL,
    channel_id      INTEGER NOT NULL,
    ruleset         TEXT    NOT NULL,
    name            TEXT    NOT NULL,
    gm_user_id      INTEGER NOT NULL,
    status          TEXT    NOT NULL DEFAULT 'setup'
                    CHECK (status IN ('setup', 'running', 'paused', 'ended')),
    options         TEXT    NOT NULL DEFAULT '{}',
    settings        TEXT    NOT NULL DEFAULT '{}',
    state           TEXT,
    seed            INTEGER NOT NULL,
    step_no         INTEGER NOT NULL DEFAULT 0,
    resolution_no   INTEGER NOT NULL DEFAULT 0,
    -- the open step's requests as "seat:kind:step" keys, to tell when a new step opens
    step_keys       TEXT    NOT NULL DEFAULT '[]',
    version         INTEGER NOT NULL DEFAULT 0,
    parent_id       INTEGER REFERENCES campaigns(id) ON DELETE SET NULL,
    parent_ref      TEXT,
    end_reason      TEXT,
    created_at      REAL    NOT NULL,
    updated_at      REAL    NOT NULL
);

-- one campaign that is not over per channel (threads are channels too)
CREATE UNIQUE INDEX campaigns_one_live_per_channel
    ON campaigns(channel_id) WHERE status != 'ended';
CREATE INDEX campaigns_by_guild ON campaigns(guild_id, status);

CREATE TABLE players (
    campaign_id INTEGER NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
    seat        INTEGER NOT NULL CHECK (seat >= 1),
    user_id     INTEGER NOT NULL,
    name        TEXT    NOT NULL,
    dm_ok       INTEGER NOT NULL DEFAULT 1,
    -- 0 = vacant (kicked): the seat stays in the game and takes defaults at deadlines
    active      INTEGER NOT NULL DEFAULT 1,
    joined_at   REAL    NOT NULL,
    PRIMARY KEY (campaign_id, seat)
);
CREATE UNIQUE INDEX players_one_seat_per_user
    ON players(campaign_id, user_id) WHERE active = 1;
CREATE INDEX players_by_user ON players(user_id);

CREATE TABLE submissions (
    campaign_id  INTEGER NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
    step_no      INTEGER NOT NULL,
    seat         INTEGER NOT NULL,
    user_id      INTEGER NOT NULL,
    action       TEXT    NOT NULL,
    submitted_at REAL    NOT NULL,
    PRIMARY KEY (campaign_id, step_no, seat)
);

CREATE TABLE drafts (
    campaign_id INTEGER NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
    step_no     INTEGER NOT NULL,
    seat        INTEGER NOT NULL,
    data        TEXT    NOT NULL DEFAULT '{}',
    updated_at  REAL    NOT NULL,
    PRIMARY KEY (campaign_id, step_no, seat)
);

CREATE TABLE events (
    id             INTEGER PRIMARY KEY,
    campaign_id    INTEGER NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
    step_no        INTEGER NOT NULL,
    resolution_no  INTEGER NOT NULL,
    audience       TEXT    NOT NULL CHECK (audience IN ('public', 'seat', 'gm')),
    seat           INTEGER,
    kind           TEXT    NOT NULL,
    text           TEXT    NOT NULL,
    data           TEXT    NOT NULL DEFAULT '{}',
    created_at     REAL    NOT NULL
);
CREATE INDEX events_by_campaign ON events(campaign_id, id);

-- the state before resolution number resolution_no, for /gm undo
CREATE TABLE snapshots (
    campaign_id    INTEGER NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
    resolution_no  INTEGER NOT NULL,
    state          TEXT    NOT NULL,
    step_no        INTEGER NOT NULL,
    step_keys      TEXT    NOT NULL,
    submissions    TEXT    NOT NULL,
    created_at     REAL    NOT NULL,
    PRIMARY KEY (campaign_id, resolution_no)
);

CREATE TABLE outbox (
    id                 INTEGER PRIMARY KEY,
    campaign_id        INTEGER REFERENCES campaigns(id) ON DELETE SET NULL,
    kind               TEXT    NOT NULL CHECK (kind IN ('channel', 'dm')),
    channel_id         INTEGER,
    user_id            INTEGER,
    content            TEXT    NOT NULL,
    panel_campaign_id  INTEGER,
    panel_step_no      INTEGER,
    panel_seat         INTEGER,
    status             TEXT    NOT NULL DEFAULT 'pending'
                       CHECK (status IN ('pending', 'sent', 'failed')),
    attempts           INTEGER NOT NULL DEFAULT 0,
    next_attempt_at    REAL    NOT NULL,
    discord_message_id INTEGER,
    last_error         TEXT,
    created_at         REAL    NOT NULL,
    CHECK ((kind = 'channel' AND channel_id IS NOT NULL)
        OR (kind = 'dm' AND user_id IS NOT NULL))
);
CREATE INDEX outbox_due ON outbox(next_attempt_at, id) WHERE status = 'pending';

CREATE TABLE outbox_files (
    outbox_id INTEGER NOT NULL REFERENCES outbox(id) ON DELETE CASCADE,
    position  INTEGER NOT NULL,
    name      TEXT    NOT NULL,
    data      BLOB    NOT NULL,
    PRIMARY KEY (outbox_id, position)
);

CREATE TABLE deadlines (
    campaign_id INTEGER NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
    step_no     INTEGER NOT NULL,
    due_at      REAL,
    -- seconds left while the campaign is paused (due_at is then NULL)
    remaining   REAL,
    status      TEXT    NOT NULL DEFAULT 'open'
                CHECK (status IN ('open', 'fired', 'closed')),
    fired_at    REAL,
    PRIMARY KEY (campaign_id, step_no)
);
CREATE INDEX deadlines_due ON deadlines(due_at) WHERE status = 'open';

CREATE TABLE reminders (
    campaign_id  INTEGER NOT NULL,
    step_no      INTEGER NOT NULL,
    offset_hours REAL    NOT NULL,
    due_at       REAL,
    -- sent, or skipped because it fell in the past when the deadline moved
    done_at      REAL,
    PRIMARY KEY (campaign_id, step_no, offset_hours),
    FOREIGN KEY (campaign_id, step_no) REFERENCES deadlines(campaign_id, step_no)
        ON DELETE CASCADE
);
CREATE INDEX reminders_due ON reminders(due_at) WHERE done_at IS NULL;
