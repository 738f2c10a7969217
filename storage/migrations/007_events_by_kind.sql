-- /gm undo's battle marks (P-13, P-14) are read by kind on every resolution of a campaign
-- that takes battle results: an index, not a scan of the whole log in the write transaction
CREATE INDEX events_by_kind ON events(campaign_id, kind, id);
