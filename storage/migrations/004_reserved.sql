-- 004 is the outbox-edits migration of another branch; this placeholder only keeps the
-- numbers without gaps on the embeds branch. Drop this file when that 004 is merged.
SELECT 1;
