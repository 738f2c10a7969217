-- 010: battle links as state (issue 17, item 3; P-13, P-14, P-41).
-- One row per battle a campaign (the parent) fights in a thread (the child campaign): where
-- its link and its result stand. Written in the transaction that changes them, read by
-- /gm undo and by every change of the parent's state, never rebuilt from the event log.
-- Not in the undo snapshots (P-41): a thread's link and result are facts of another
-- campaign, which an undo of the parent does not take back.
CREATE TABLE battle_links (
    parent_id         INTEGER NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
    child_id          INTEGER NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
    ref               TEXT    NOT NULL,  -- the parent's battle the thread fights
    -- the battle marked as fought in its thread (linked), kept through an undo until it
    -- comes up again (owed), or fighting nothing of the parent any more (dropped)
    link_state        TEXT    CHECK (link_state IN ('linked', 'owed', 'dropped')),
    link_resolution   INTEGER NOT NULL DEFAULT 0,  -- the parent's resolution it came after
    link_round        INTEGER,  -- the parent's round it belongs to (``battle_round``)
    link_seq          INTEGER NOT NULL DEFAULT 0,  -- the order of the parent's link changes
    -- the battle's result came in (arrived), kept through an undo until the battle waits
    -- again (owed), or its round ended without it (dropped)
    result_state      TEXT    CHECK (result_state IN ('arrived', 'owed', 'dropped')),
    result_resolution INTEGER NOT NULL DEFAULT 0,
    result_round      INTEGER,
    result_seq        INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (parent_id, child_id)
);

-- The links and results older versions kept only as marks in the parent's log (GM events,
-- data {"campaign": child id, "ref", "round"}): the newest mark of each kind family per
-- battle becomes its row; the mark's event id keeps their order. (json_extract reads the
-- SQLite databases those versions wrote; the table above is plain SQL.)
CREATE TEMP TABLE old_marks AS
SELECT e.id AS id, e.campaign_id AS parent_id,
       CAST(json_extract(e.data, '$.campaign') AS INTEGER) AS child_id,
       e.kind AS kind, e.resolution_no AS resolution_no,
       CASE WHEN json_type(e.data, '$.round') = 'integer'
            THEN json_extract(e.data, '$.round') END AS round_no,
       CASE WHEN e.kind IN ('link_made', 'link_owed', 'link_dropped') THEN 'link'
            ELSE 'result' END AS family
FROM events e
WHERE e.kind IN ('link_made', 'link_owed', 'link_dropped',
                 'battle_arrival', 'battle_owed', 'battle_dropped')
  AND json_type(e.data, '$.campaign') = 'integer';

DELETE FROM old_marks WHERE id < (
    SELECT MAX(n.id) FROM old_marks n
    WHERE n.parent_id = old_marks.parent_id AND n.child_id = old_marks.child_id
      AND n.family = old_marks.family);

INSERT INTO battle_links (parent_id, child_id, ref)
SELECT DISTINCT m.parent_id, m.child_id, COALESCE(c.parent_ref, '')
FROM old_marks m JOIN campaigns c ON c.id = m.child_id
WHERE m.parent_id IN (SELECT id FROM campaigns);

UPDATE battle_links SET
    link_state = (SELECT CASE m.kind WHEN 'link_made' THEN 'linked' WHEN 'link_owed' THEN 'owed'
                         ELSE 'dropped' END FROM old_marks m
                  WHERE m.parent_id = battle_links.parent_id
                    AND m.child_id = battle_links.child_id AND m.family = 'link'),
    link_resolution = COALESCE((SELECT m.resolution_no FROM old_marks m
                                WHERE m.parent_id = battle_links.parent_id
                                  AND m.child_id = battle_links.child_id
                                  AND m.family = 'link'), 0),
    link_round = (SELECT m.round_no FROM old_marks m
                  WHERE m.parent_id = battle_links.parent_id
                    AND m.child_id = battle_links.child_id AND m.family = 'link'),
    link_seq = COALESCE((SELECT m.id FROM old_marks m
                         WHERE m.parent_id = battle_links.parent_id
                           AND m.child_id = battle_links.child_id AND m.family = 'link'), 0),
    result_state = (SELECT CASE m.kind WHEN 'battle_arrival' THEN 'arrived'
                           WHEN 'battle_owed' THEN 'owed' ELSE 'dropped' END FROM old_marks m
                    WHERE m.parent_id = battle_links.parent_id
                      AND m.child_id = battle_links.child_id AND m.family = 'result'),
    result_resolution = COALESCE((SELECT m.resolution_no FROM old_marks m
                                  WHERE m.parent_id = battle_links.parent_id
                                    AND m.child_id = battle_links.child_id
                                    AND m.family = 'result'), 0),
    result_round = (SELECT m.round_no FROM old_marks m
                    WHERE m.parent_id = battle_links.parent_id
                      AND m.child_id = battle_links.child_id AND m.family = 'result'),
    result_seq = COALESCE((SELECT m.id FROM old_marks m
                           WHERE m.parent_id = battle_links.parent_id
                             AND m.child_id = battle_links.child_id
                             AND m.family = 'result'), 0);

DROP TABLE old_marks;
