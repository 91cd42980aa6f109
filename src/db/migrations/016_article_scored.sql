-- Background documents (CHEMDNER, DrugProt's large-scale track): a challenge's articles go to
-- every server alike, but only those the organiser marks as scored count on the leaderboards.
-- Every article loaded before this migration is scored, as it always was. The partial index
-- serves the few reads that look for background articles (counts, gold checks) without
-- growing with the scored ones.
alter table articles add column scored boolean not null default true;
create index articles_background_idx on articles (challenge_id, organiser_id) where not scored;
