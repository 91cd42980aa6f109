-- Fewer bytes of bookkeeping per settled pair (article × server): what dispatch leaves in
-- the database beyond the article and the answer's own content (the issue's goal is 600 bytes;
-- test/dispatch/storage-per-pair.test.ts measures it and prints where the bytes go). Each
-- change below, in bytes per pair as that test measured it with PGlite (PostgreSQL's figures
-- move more from run to run, but the same way).

-- deliveries_server_state held an entry for every row version of every delivery — three per
-- settled pair (queued, active, done), ~37 bytes. What reads deliveries by server and state
-- asks only for those under way or failed (activeDeliveries, requeueFailed, the on-demand
-- count) or those not begun (the window: deliveries_waiting); the counts come from
-- delivery_state_counts (migration 017), the article lists look up each article's rows by
-- key. So only the active and failed versions get an entry now: ~16 bytes, and an index that
-- a settled challenge no longer fills. (Deleting a server now reads the whole table, as it
-- already did for attempts and answers.)
drop index deliveries_server_state;
create index deliveries_unsettled on deliveries (server_id, state) where state in ('active', 'failed');

-- attempts.id served only as a tie-break between attempts begun in the same transaction (the
-- error lists, the reliability figures) and to update an open attempt found pair by pair;
-- (article_id, server_id, n) is unique already and does both. Its index, sequence and
-- column cost ~68 bytes per pair (each attempt's two row versions, begun and ended, had an
-- entry). The unique constraint becomes the primary key — rebuilt, so packed, not grown —
-- and the failed attempts' index takes the same tie-break (the old one named id: dropped
-- with it).
alter table attempts drop constraint attempts_article_id_server_id_n_key;
alter table attempts drop column id;
alter table attempts add primary key (article_id, server_id, n);
create index attempts_server_failed_recent on attempts (server_id, started_at desc, article_id desc, n desc)
  where outcome is not null and outcome <> 'ok';

-- deliveries.updated_at was written by every change of a delivery and read by nothing (the
-- attempts hold when each try started, the answers when they were stored): 8 bytes in each
-- row version, ~23 per pair.
alter table deliveries drop column updated_at;

-- Each change of state is a new row version of the delivery (not heap-only: the state is in
-- the partial indexes), placed in the row's own page when it has room. Filled to the brim,
-- a page had none, so the versions went to new pages at the end of the table, ~2.8 row
-- versions per settled pair (and more with PostgreSQL's parallel batches). Half-filled, each
-- row's next version fits beside it, and the page's dead versions are pruned to make room
-- for the one after: ~2 per pair, 223 → 178 bytes (PostgreSQL: 285–334 → 182–256). 40 % and
-- 60 % measured 217 and 190. Attempts at 50 % grew (145 → 162), most likely as the room
-- their first versions leave when pruned is not taken by new attempts (inserts go only to
-- pages under half full): left at 100 %. Applies to the pages written from now on.
alter table deliveries set (fillfactor = 50);

-- dispatch_write_batch (migration 019) again, with two changes: an open attempt marked
-- interrupted is found pair by pair as before and updated by its row address (ctid, a TID
-- scan: the id it was updated by is gone); and a delivery's change no longer writes
-- updated_at.
create or replace function dispatch_write_batch(begins jsonb, finishes jsonb, take_locks boolean)
returns table (i int, n int)
language plpgsql volatile
set enable_seqscan = off set enable_hashjoin = off set enable_mergejoin = off
as $fn$
begin
  if take_locks then
    perform pg_advisory_xact_lock_shared(72260005, c) from (
      select distinct a.challenge_id as c from articles a
      where a.id in (select (x ->> 'article_id')::uuid from jsonb_array_elements(begins || finishes) x)
      order by 1) challenges_of_batch;
    perform pg_advisory_xact_lock(72260003, k) from (
      select distinct hashtext(lower(b.article_id) || '/' || b.server_id) as k
      from jsonb_to_recordset(begins) as b(article_id text, server_id int) order by 1) locks;
  end if;
  return query
  with b_all as (
    select t.*, coalesce(c.phase = 'closed', false) as closed
    from jsonb_to_recordset(begins) as t(i int, article_id uuid, server_id int, unless_answered boolean)
    left join articles ar on ar.id = t.article_id left join challenges c on c.id = ar.challenge_id
  ), b_items as (
    select * from b_all where not b_all.closed
  ), starting as (
    select b.* from b_items b
    left join lateral (select true as found from answers a where a.article_id = b.article_id and a.server_id = b.server_id) answered on true
    where not (b.unless_answered and answered.found is not null)
  ), interrupted as (
    update attempts at set outcome = 'interrupted', detail = 'the worker processing this attempt stopped before it ended; the request was reissued'
    where at.ctid = any (array(
      select o.ctid from starting s
      cross join lateral (
        -- offset 0: kept a subquery of its own, looked up for each pair, not pulled up into a join
        select p.ctid from attempts p where p.article_id = s.article_id and p.server_id = s.server_id and p.outcome is null offset 0) o))
    returning 1
  ), next as (
    insert into attempts (article_id, server_id, n)
    select s.article_id, s.server_id,
           coalesce((select max(p.n) from attempts p where p.article_id = s.article_id and p.server_id = s.server_id), 0) + 1
    from starting s
    returning attempts.article_id, attempts.server_id, attempts.n
  ), f_all as (
    select t.*, coalesce(c.phase = 'closed', false) as closed
    from jsonb_to_recordset(finishes) as t(i int, article_id uuid, server_id int, n int, ms int,
      outcome text, detail text, errors jsonb, bytes_sent int, bytes_received int, state text, result jsonb, warnings jsonb)
    left join articles ar on ar.id = t.article_id left join challenges c on c.id = ar.challenge_id
  ), f_items as (
    select * from f_all where not f_all.closed
  ), f_closed as (
    select f.i, f.article_id, f.server_id, f.n, f.ms, f.bytes_sent, f.bytes_received,
           'the challenge was closed before this attempt ended: nothing was stored, and the article is sent again if the challenge is reopened'::text as detail
    from f_all f where f.closed
  ), inserted as (
    insert into answers (article_id, server_id, result, warnings, attempt_n, ms, bytes)
    select f.article_id, f.server_id, f.result, coalesce(f.warnings, '[]'), f.n, f.ms, f.bytes_received from f_items f where f.result is not null
    on conflict do nothing returning answers.article_id, answers.server_id
  ), finished as (
    update attempts a set ms = f.ms, outcome = f.outcome, detail = f.detail, errors = f.errors,
           bytes_sent = f.bytes_sent, bytes_received = f.bytes_received
    from f_items f where a.article_id = f.article_id and a.server_id = f.server_id and a.n = f.n
    returning 1
  ), cut_off as (
    update attempts a set ms = f.ms, outcome = 'interrupted', detail = f.detail, bytes_sent = f.bytes_sent, bytes_received = f.bytes_received
    from f_closed f where a.article_id = f.article_id and a.server_id = f.server_id and a.n = f.n
    returning 1
  ), delivery as (
    insert into deliveries as d (article_id, server_id, state, attempts, last_outcome, last_detail)
    select x.article_id, x.server_id, 'active', x.n, null, null from next x
    union all select f.article_id, f.server_id, f.state, f.n, f.outcome, f.detail from f_items f
    union all select f.article_id, f.server_id, 'queued', f.n, 'interrupted', f.detail from f_closed f
    order by 1, 2
    on conflict (article_id, server_id) do update
       set state = case when d.state = 'done' then 'done' else excluded.state end,
           attempts = greatest(d.attempts, excluded.attempts),
           last_outcome = coalesce(excluded.last_outcome, d.last_outcome),
           last_detail = excluded.last_detail
  )
  select b.i, x.n from b_items b left join next x on x.article_id = b.article_id and x.server_id = b.server_id
  union all select b.i, 0 from b_all b where b.closed
  union all select f.i, 1 from f_items f join inserted s on s.article_id = f.article_id and s.server_id = f.server_id
  union all select f.i, 0 from f_closed f;
end
$fn$;
