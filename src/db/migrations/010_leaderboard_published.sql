-- The organiser may publish a closed challenge's leaderboards to everyone (no token needed).
-- Reopening the challenge withdraws the publication (answers may change again): the
-- organiser publishes again after the next close.
alter table challenges add column leaderboard_published boolean not null default false;
