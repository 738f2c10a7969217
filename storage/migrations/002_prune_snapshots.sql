-- 002: undo snapshots are now kept to a set depth (config [service] undo_depth, default 10;
-- storage.turns.put_snapshot prunes as it adds). Databases written before kept one full
-- state per resolution forever; this keeps the newest 10 of each campaign. A migration
-- cannot read the settings, so 10 is fixed here: with a larger undo_depth the history
-- beyond 10 is gone, with a smaller one the next resolution prunes the rest.
-- The freed pages are reused by SQLite; run VACUUM (bot stopped) to shrink the file itself.

DELETE FROM snapshots
WHERE (SELECT COUNT(*) FROM snapshots AS newer
       WHERE newer.campaign_id = snapshots.campaign_id
         AND newer.resolution_no > snapshots.resolution_no) >= 10;
