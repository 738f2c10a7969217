-- 003: pictures are drawn after commit, off the event loop, when their message is sent.
-- An outbox file is now a REQUEST: the renderer (rule set + picture name) and the view it
-- draws, as JSON; the PNG itself is never stored. Rows written before this version keep
-- their drawn bytes in `data` until sent. Files of messages already sent or failed were kept
-- forever: they are dropped here, and from now on when their message is sent or fails.
-- `notice` marks the bot's own "could not deliver" notes, whose failure tells nobody.
-- The freed pages are reused by SQLite; run VACUUM (bot stopped) to shrink the file itself.

CREATE TABLE outbox_files_003 (
    outbox_id INTEGER NOT NULL REFERENCES outbox(id) ON DELETE CASCADE,
    position  INTEGER NOT NULL,
    name      TEXT    NOT NULL,
    ruleset   TEXT,
    renderer  TEXT,
    view      TEXT,
    data      BLOB,
    PRIMARY KEY (outbox_id, position),
    CHECK (data IS NOT NULL
           OR (ruleset IS NOT NULL AND renderer IS NOT NULL AND view IS NOT NULL))
);
INSERT INTO outbox_files_003 (outbox_id, position, name, data)
    SELECT f.outbox_id, f.position, f.name, f.data FROM outbox_files AS f
    JOIN outbox AS o ON o.id = f.outbox_id WHERE o.status = 'pending';
DROP TABLE outbox_files;
ALTER TABLE outbox_files_003 RENAME TO outbox_files;

ALTER TABLE outbox ADD COLUMN notice INTEGER NOT NULL DEFAULT 0;

-- the dispatcher sends, per destination, only the oldest pending message
CREATE INDEX outbox_pending_by_destination
    ON outbox(kind, channel_id, user_id, id) WHERE status = 'pending';
