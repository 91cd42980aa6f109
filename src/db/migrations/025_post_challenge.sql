-- The post-challenge phase and the official board kept (issue 39). After the close the
-- organiser may open a phase `post`: teams register, run and upload again, and what arrives
-- then is scored on the live board, marked post-challenge. The official results are the
-- boards as they were at the close, stored, never recomputed from what came later.
--
-- official_closed_at: the close the official boards are of (set by a close from setup or
-- test; a close that ends a post phase keeps it). post_opened_at: when the post phase
-- first opened after that close; from then on the official boards are never taken again.
-- Both are cleared when the challenge is reopened to setup or test, and set again at the
-- next close.
alter table challenges drop constraint challenges_phase_check;
alter table challenges add constraint challenges_phase_check check (phase in ('setup', 'test', 'closed', 'post'));
alter table challenges add column official_closed_at timestamptz, add column post_opened_at timestamptz;

-- One stored board per task: the scores API's answer with the default options (rows,
-- figures, ranks, baselines), answered as written. Text, not jsonb: jsonb reorders keys,
-- and the figures' order is the TSV's column order.
create table official_boards (
  challenge_id integer not null references challenges (id),
  task text not null,
  closed_at timestamptz not null,
  taken_at timestamptz not null default now(),
  board text not null,
  primary key (challenge_id, task)
);

-- A team's runs after the close are numbered on from its official ones: 5 then, 5 again in
-- each post phase (the limit is counted in RunsRepository.add, under the team's lock).
alter table offline_runs drop constraint offline_runs_n_check;
alter table offline_runs add constraint offline_runs_n_check check (n >= 1);
