-- 005: a channel message may carry embeds (results shown as Discord embeds). `embeds` holds
-- them as a JSON list of {title, description, fields: [{name, value, inline}], footer, image}
-- where `image` names one of the message's files (shown as attachment://<name>); NULL = none.
-- Additive only: it reads and writes no other column, so it does not depend on 004.
ALTER TABLE outbox ADD COLUMN embeds TEXT;
