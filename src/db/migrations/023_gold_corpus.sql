-- A gold standard loaded from a corpus (BioC, PubTator) keeps the corpus as it was read,
-- beside the family's own form it is scored from: the organiser's gold export writes it
-- back (the collection's source, date and key, the documents in the corpus's order, each
-- annotation's id, infons and locations — also a discontinuous one's fragments — and the
-- relations with their nodes), so a corpus goes in and comes out the same. Written in the
-- same transaction as its gold_standards row; a gold loaded in the family's own form has
-- none (its export is written from its items). The documents are JSON text, not jsonb,
-- so each infon map keeps the order it was written in.
alter table gold_standards add column corpus_format text, add column corpus_header text;

create table gold_corpus_documents (
  challenge_id integer not null,
  task text not null,
  n integer not null,
  doc text not null,
  body text not null,
  primary key (challenge_id, task, n),
  foreign key (challenge_id, task) references gold_standards (challenge_id, task) on delete cascade
);
