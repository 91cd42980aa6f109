-- What the pages and exports of a challenge of a million articles read without scanning it.
--
-- delivery_state_counts: each server's deliveries by state, as deltas appended by
-- statement-level triggers on deliveries (one row per statement, server and state that
-- changed: +n for rows that entered the state, -n for rows that left it). A server's count
-- in a state is the sum of its rows. Writers only ever insert, never update a shared row:
-- two dispatch transactions never wait for each other here, and no lock order between
-- counter rows can deadlock them. Readers fold a server's rows into one per state
-- (fold_delivery_state_counts), which deletes only committed rows, so a fold never blocks
-- a writer and nothing is counted twice or lost.
create table delivery_state_counts (
  server_id integer not null,
  state text not null,
  n bigint not null
);
create index delivery_state_counts_server on delivery_state_counts (server_id);

insert into delivery_state_counts (server_id, state, n)
select server_id, state, count(*) from deliveries group by server_id, state;

create or replace function delivery_state_counts_inserted() returns trigger
language plpgsql as $fn$
begin
  insert into delivery_state_counts (server_id, state, n)
  select server_id, state, count(*) from delivery_rows_new group by server_id, state;
  return null;
end
$fn$;

create or replace function delivery_state_counts_updated() returns trigger
language plpgsql as $fn$
begin
  -- Rows whose state did not change cancel out and write nothing.
  insert into delivery_state_counts (server_id, state, n)
  select server_id, state, sum(n) from (
    select server_id, state, 1 as n from delivery_rows_new
    union all
    select server_id, state, -1 as n from delivery_rows_old) moved
  group by server_id, state
  having sum(n) <> 0;
  return null;
end
$fn$;

create or replace function delivery_state_counts_deleted() returns trigger
language plpgsql as $fn$
begin
  insert into delivery_state_counts (server_id, state, n)
  select server_id, state, -count(*) from delivery_rows_old group by server_id, state;
  return null;
end
$fn$;

create or replace function delivery_state_counts_truncated() returns trigger
language plpgsql as $fn$
begin
  delete from delivery_state_counts;
  return null;
end
$fn$;

-- PostgreSQL takes transition tables on one event per trigger: three triggers.
create trigger deliveries_count_inserted after insert on deliveries
  referencing new table as delivery_rows_new for each statement execute function delivery_state_counts_inserted();
create trigger deliveries_count_updated after update on deliveries
  referencing old table as delivery_rows_old new table as delivery_rows_new
  for each statement execute function delivery_state_counts_updated();
create trigger deliveries_count_deleted after delete on deliveries
  referencing old table as delivery_rows_old for each statement execute function delivery_state_counts_deleted();
create trigger deliveries_count_truncated after truncate on deliveries
  for each statement execute function delivery_state_counts_truncated();

-- One row per state for each of the servers: the deltas summed and written back as one.
create or replace function fold_delivery_state_counts(server_ids integer[]) returns void
language sql as $fn$
  with gone as (delete from delivery_state_counts where server_id = any(server_ids) returning server_id, state, n)
  insert into delivery_state_counts (server_id, state, n)
  select server_id, state, sum(n) from gone group by server_id, state having sum(n) <> 0;
$fn$;

-- Article lists paged by key (load order within a challenge), and exports read in
-- organiser-id order (the order the whole-body exports always had) page by page.
create index articles_challenge_seq on articles (challenge_id, seq);
create index articles_challenge_export_key on articles (challenge_id, (coalesce(organiser_id, id::text)));

-- A server's failed attempts, newest first, and counted by kind, without reading its
-- successful ones (the server page's error report).
create index attempts_server_failed_recent on attempts (server_id, started_at desc, id desc)
  where outcome is not null and outcome <> 'ok';
