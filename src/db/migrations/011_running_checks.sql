-- A setup check in progress, kept here so that every API process shows it (GET
-- /api/servers/:id says checkRunning) and none starts a second one while it runs: the team's
-- server gets one setup call at a time, whichever process is asked. One row per server,
-- removed by the process that ran the check once its result is stored. A process that dies
-- mid-check leaves its row behind: past expires_at (the check deadline and a margin) the
-- check counts as not running, and the next one takes the row over.
create table running_checks (
  server_id integer primary key references servers (id) on delete cascade,
  process text not null,
  started_at timestamptz not null default now(),
  expires_at timestamptz not null
);
