-- The sections of an article loaded from a corpus (BioC passages, PubTator title and
-- abstract): a JSON list of {offset, length, name?, type?} in code points, in offset order,
-- so that exports write the passages and their section names back as the corpus had them.
-- Null for articles without (plain text, JATS): exports cut those at blank lines.
alter table articles add column sections jsonb;
