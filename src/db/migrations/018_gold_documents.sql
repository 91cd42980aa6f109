-- A gold standard of a streamed family (MENTION) also kept one row per document, written
-- with its gold_standards row at load: a leaderboard over a million documents reads the
-- gold a page of documents at a time, by key, instead of parsing one body of hundreds of
-- megabytes. A gold loaded before this table has no rows here and is scored whole.
create table gold_documents (
  challenge_id integer not null,
  task text not null,
  doc text not null,
  body text not null,
  primary key (challenge_id, task, doc),
  foreign key (challenge_id, task) references gold_standards (challenge_id, task) on delete cascade
);
