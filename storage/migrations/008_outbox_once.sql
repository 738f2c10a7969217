-- 008: every message exactly once (P-33).
-- Outbox ids are never reused. The id used to be SQLite's max(id)+1: when a newer edit of a
-- tracker deleted the pending edit that held the highest id, the new row took that id, and a
-- dispatcher still sending the deleted row marked the NEW one sent (its text never went out).
-- `outbox_ids` holds the highest id ever given; storage.outbox inserts `last + 1`, and the
-- trigger keeps `last` up to date for any insert (tests and tools that give no id).
-- A sequence table rather than rebuilding `outbox` with AUTOINCREMENT: other tables reference
-- outbox(id) (files cascade), and columns other migrations add are kept as they are.
CREATE TABLE outbox_ids (last INTEGER NOT NULL);
INSERT INTO outbox_ids (last) SELECT COALESCE(MAX(id), 0) FROM outbox;
CREATE TRIGGER outbox_ids_follow AFTER INSERT ON outbox
    WHEN NEW.id > (SELECT last FROM outbox_ids)
    BEGIN UPDATE outbox_ids SET last = NEW.id; END;

-- `nonce`: sent with every post of the row (a piece i of a long message as "<nonce>.<i>",
-- with enforce_nonce), so Discord answers a retry after a crash with the message it already
-- made instead of a second copy. Rows waiting now get theirs here.
ALTER TABLE outbox ADD COLUMN nonce TEXT;
UPDATE outbox SET nonce = lower(hex(randomblob(8))) WHERE status = 'pending';

-- `pieces_sent`: how many pieces of an overlong message are on Discord already; a retry
-- (also after a restart) goes on with the next piece.
ALTER TABLE outbox ADD COLUMN pieces_sent INTEGER NOT NULL DEFAULT 0;

-- `mentions`: JSON list of the user ids this message may ping (P-34); NULL = nobody.
ALTER TABLE outbox ADD COLUMN mentions TEXT;

-- `started`: a panel DM's post was begun. A try that finds it set may have posted already
-- (a crash after Discord's reply, beyond the nonce's window): after posting, the dispatcher
-- takes the buttons off any extra copy of it in those DMs.
ALTER TABLE outbox ADD COLUMN started INTEGER NOT NULL DEFAULT 0;
