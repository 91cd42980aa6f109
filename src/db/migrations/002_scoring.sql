-- Scoring inputs: gold standards, offline runs and the BC II.5 post-processing maps.
-- Uploads are kept as sent (TSV text, or JSON text for MENTION/COREF) and parsed again
-- when scoring: a parser fix then applies to stored data, and exports stay faithful.
-- Each upload is one row, so replacing a gold standard or a map is a single upsert:
-- readers see the old version or the new one, never a mix.

create table gold_standards (
  challenge_id integer not null references challenges (id),
  task text not null check (task in ('ACT', 'INT', 'IPT', 'MENTION', 'COREF')),
  body text not null,
  documents integer not null,
  items integer not null,
  loaded_at timestamptz not null default now(),
  primary key (challenge_id, task)
);

-- A team's offline runs, numbered 1..5 per task (BC II.5 allowed five per team); the
-- check makes the limit hold even if the application's count were bypassed.
create table offline_runs (
  id serial primary key,
  challenge_id integer not null references challenges (id),
  team_id integer not null references teams (id),
  task text not null check (task in ('ACT', 'INT', 'IPT', 'MENTION', 'COREF')),
  n integer not null check (n between 1 and 5),
  name text not null,
  -- The column layout of a BC II.5 TSV run (bc-evaluate's -c/-r/-l); null for JSON runs.
  columns text check (columns in ('rank,confidence', 'confidence', 'rank', 'order')),
  body text not null,
  uploaded_at timestamptz not null default now(),
  unique (challenge_id, team_id, task, n)
);

-- ho: homonym-ortholog map (gold accession TAB acc1,acc2,…); of: organism map
-- (accession TAB taxon id). One of each per challenge, applied on request.
create table scoring_maps (
  challenge_id integer not null references challenges (id),
  kind text not null check (kind in ('ho', 'of')),
  body text not null,
  entries integer not null,
  loaded_at timestamptz not null default now(),
  primary key (challenge_id, kind)
);
