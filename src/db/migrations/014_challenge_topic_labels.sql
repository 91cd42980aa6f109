-- TOPIC challenges name their label set (empty: LitCovid's seven), as relation_types names
-- REL's relation types.
alter table challenges add column topic_labels text[] not null default '{}';
