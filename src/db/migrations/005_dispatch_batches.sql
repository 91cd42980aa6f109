-- Dispatch writes the starts and ends of many attempts at once (group commit; see
-- src/dispatch/group-commit.ts and store-batch.ts).

-- Starting an attempt marks the pair's attempt left open by a dead worker as interrupted:
-- this index holds only the open attempts (those in flight), so finding them stays cheap
-- however many attempts are stored.
create index attempts_open on attempts (article_id, server_id) where outcome is null;

-- One batch of dispatch writes in one call: a function, so that its statement is planned
-- once per session instead of once per batch (planning was half of a batch's cost), and
-- so that the locks and the writes are one round trip yet two statements (the writes'
-- snapshot is taken after the locks are held, so they see an answer stored meanwhile).
--
-- begins:   [{i, article_id, server_id, unless_answered}] — start an attempt (and mark one
--           left open by a dead worker interrupted), unless unless_answered and the answer
--           is there already.
-- finishes: [{i, article_id, server_id, n, ms, outcome, detail?, errors?, bytes_sent,
--           bytes_received, state, result?, warnings?}] — end attempt n; with a result,
--           store the answer (once: on conflict do nothing).
-- take_locks: two processes may run a job delivered twice; each start takes a transaction
--           lock on its pair, in ascending order (no deadlock between batches). Not needed
--           with PGlite, which belongs to one process.
-- Returns (i, n): every begin, n null where the answer was there; every finish that stored
-- a new answer. A batch holds one write per pair, so no statement touches a row twice.
-- The planner settings: a batch is at most a few hundred pairs, each found through its
-- key's index — the right plan whatever the tables hold; without statistics (PGlite never
-- runs autovacuum's analyze) the planner would guess hash joins over whole tables.
create or replace function dispatch_write_batch(begins jsonb, finishes jsonb, take_locks boolean)
returns table (i int, n int)
language plpgsql volatile
set enable_seqscan = off set enable_hashjoin = off set enable_mergejoin = off
as $fn$
begin
  if take_locks then
    perform pg_advisory_xact_lock(72260003, k) from (
      select distinct hashtext(lower(b.article_id) || '/' || b.server_id) as k
      from jsonb_to_recordset(begins) as b(article_id text, server_id int) order by 1) locks;
  end if;
  return query
  with b_items as (
    select * from jsonb_to_recordset(begins) as t(i int, article_id uuid, server_id int, unless_answered boolean)
  ), starting as (
    select b.* from b_items b
    left join lateral (select true as found from answers a where a.article_id = b.article_id and a.server_id = b.server_id) answered on true
    where not (b.unless_answered and answered.found is not null)
  ), interrupted as (
    update attempts at set outcome = 'interrupted', detail = 'the worker processing this attempt stopped before it ended; the request was reissued'
    from starting s where at.article_id = s.article_id and at.server_id = s.server_id and at.outcome is null
    returning 1
  ), next as (
    insert into attempts (article_id, server_id, n)
    select s.article_id, s.server_id,
           coalesce((select max(p.n) from attempts p where p.article_id = s.article_id and p.server_id = s.server_id), 0) + 1
    from starting s
    returning attempts.article_id, attempts.server_id, attempts.n
  ), f_items as (
    select * from jsonb_to_recordset(finishes) as t(i int, article_id uuid, server_id int, n int, ms int,
      outcome text, detail text, errors jsonb, bytes_sent int, bytes_received int, state text, result jsonb, warnings jsonb)
  ), inserted as (
    insert into answers (article_id, server_id, result, warnings, attempt_n, ms, bytes)
    select f.article_id, f.server_id, f.result, coalesce(f.warnings, '[]'), f.n, f.ms, f.bytes_received from f_items f where f.result is not null
    on conflict do nothing returning answers.article_id, answers.server_id
  ), finished as (
    update attempts a set ms = f.ms, outcome = f.outcome, detail = f.detail, errors = f.errors,
           bytes_sent = f.bytes_sent, bytes_received = f.bytes_received
    from f_items f where a.article_id = f.article_id and a.server_id = f.server_id and a.n = f.n
    returning 1
  ), delivery as (
    insert into deliveries as d (article_id, server_id, state, attempts, last_outcome, last_detail)
    select x.article_id, x.server_id, 'active', x.n, null, null from next x
    union all select f.article_id, f.server_id, f.state, f.n, f.outcome, f.detail from f_items f
    order by 1, 2
    on conflict (article_id, server_id) do update
       set state = case when d.state = 'done' then 'done' else excluded.state end,
           attempts = greatest(d.attempts, excluded.attempts),
           last_outcome = coalesce(excluded.last_outcome, d.last_outcome),
           last_detail = excluded.last_detail,
           updated_at = now()
  )
  select b.i, x.n from b_items b left join next x on x.article_id = b.article_id and x.server_id = b.server_id
  union all select f.i, null::int from f_items f join inserted s on s.article_id = f.article_id and s.server_id = f.server_id;
end
$fn$;
