-- Baselines: runs the organiser uploads for comparison, shown on the leaderboard but not
-- ranked. They stay in offline_runs rather than a table of their own because they are
-- stored, parsed and scored exactly like a team's offline run (same columns, same reader):
-- one table keeps that one code path. A baseline belongs to no team and takes none of a
-- team's numbered slots, so team_id and n are null for it and set for every team run (the
-- check). unique (challenge_id, team_id, task, n) still holds for team runs (nulls never
-- collide); baselines are unique by name per challenge and task, which is what lets a
-- second upload under the same name replace the first.
alter table offline_runs
  alter column team_id drop not null,
  alter column n drop not null,
  add column baseline boolean not null default false,
  add constraint offline_runs_baseline_owner check (
    (baseline and team_id is null and n is null) or (not baseline and team_id is not null and n is not null)
  );

create unique index offline_runs_baseline_name on offline_runs (challenge_id, task, name) where baseline;
