-- Dispatch keeps the corpus in the database, not in Redis. A delivery row is written for
-- every article a server is to get as soon as it is due (all at once, whatever the corpus
-- size); Redis holds a bounded window of jobs per server, filled from these rows in queue
-- order as pairs settle, from a cursor kept in Redis (src/dispatch/queue-window.ts).
--   seq: the article's queue order, copied so that the window is filled from one index
--   without joining a million articles.
alter table deliveries add column seq bigint;
update deliveries d set seq = a.seq from articles a where a.id = d.article_id;

-- What the window is filled from: only the rows not begun yet are in it, so it stays
-- small as the run advances. (Tried instead: no index naming the state and pages kept 30 %
-- free, so that a pair's updates stay heap-only: they did not — the rows of a page are
-- begun and settled within moments of each other, before a page can reclaim anything —
-- and it took more bytes per settled pair, 961 against 920.)
create index deliveries_waiting on deliveries (server_id, seq) where state = 'queued';

-- dispatch_write_batch (migration 006) again, with one change: the open attempts of the
-- pairs starting (marked interrupted) are looked up pair by pair through the unique (article,
-- server, n) index, then updated by id. Joined to the batch as before, the planner scanned
-- the whole of attempts_open instead — and that index keeps an entry for every attempt begun
-- since the last vacuum (each leaves it, as a dead entry, when it ends) — so every start grew
-- dearer as the challenge went on (6 ms a batch after 20,000 attempts; the settle rate fell
-- from ~400 to ~220 pairs a second within 30,000 pairs). attempts_open serves nothing else,
-- and costs ~55 bytes per settled pair: dropped.
drop index attempts_open;

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
    where at.id = any (array(
      select o.id from starting s
      cross join lateral (
        -- offset 0: kept a subquery of its own, looked up for each pair, not pulled up into a join
        select p.id from attempts p where p.article_id = s.article_id and p.server_id = s.server_id and p.outcome is null offset 0) o))
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
           last_detail = excluded.last_detail,
           updated_at = now()
  )
  select b.i, x.n from b_items b left join next x on x.article_id = b.article_id and x.server_id = b.server_id
  union all select b.i, 0 from b_all b where b.closed
  union all select f.i, 1 from f_items f join inserted s on s.article_id = f.article_id and s.server_id = f.server_id
  union all select f.i, 0 from f_closed f;
end
$fn$;
