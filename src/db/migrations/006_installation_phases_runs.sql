-- The installation, who changed a challenge's phase, stable run names, and closed
-- challenges enforced where dispatch writes.

-- An id made once with the database: every process of this installation reads it and
-- derives its Redis key prefix from it, so two installations sharing one Redis never take
-- each other's jobs (METASERVER_QUEUE_PREFIX still overrides).
insert into settings (key, value) values ('installation_id', replace(gen_random_uuid()::text, '-', ''))
on conflict (key) do nothing;

-- Who changed a challenge's phase, and when: the latest on the challenge, every change in
-- the history.
alter table challenges add column phase_changed_at timestamptz;
alter table challenges add column phase_changed_by text;
create table challenge_phase_changes (
  id serial primary key,
  challenge_id integer not null references challenges (id),
  from_phase text not null,
  to_phase text not null,
  changed_by text not null,
  address text,
  changed_at timestamptz not null default now()
);
create index challenge_phase_changes_challenge on challenge_phase_changes (challenge_id, id);

-- A server's run is published as T<team id>_S<run_n>. The number is given once, at
-- registration, from a per-team counter that never goes back: deleting a server renames
-- no other run, and no new server takes a deleted one's name.
create table server_run_numbers (
  challenge_id integer not null references challenges (id),
  team_id integer not null references teams (id),
  last_n integer not null,
  primary key (challenge_id, team_id)
);
alter table servers add column run_n integer;
update servers s set run_n = x.n
from (select id, row_number() over (partition by challenge_id, team_id order by id) as n from servers) x
where x.id = s.id;
insert into server_run_numbers (challenge_id, team_id, last_n)
select challenge_id, team_id, max(run_n) from servers group by challenge_id, team_id;

create function servers_next_run_n() returns trigger language plpgsql as $fn$
begin
  if new.run_n is null then
    insert into server_run_numbers as r (challenge_id, team_id, last_n) values (new.challenge_id, new.team_id, 1)
    on conflict (challenge_id, team_id) do update set last_n = r.last_n + 1
    returning last_n into new.run_n;
  end if;
  return new;
end
$fn$;
create trigger servers_run_n before insert on servers for each row execute function servers_next_run_n();
alter table servers alter column run_n set not null;
alter table servers add constraint servers_run_n_unique unique (challenge_id, team_id, run_n);

-- dispatch_write_batch (migration 005) again, with the challenge's phase checked in the same
-- statement as the writes: once a challenge is closed, no attempt of its articles begins
-- and none ends with an answer stored.
--   begin of a closed challenge's article: nothing written, n = 0 returned;
--   end of an attempt (answer or failure) of a closed challenge's article: the attempt is
--   recorded as interrupted, nothing is stored, the delivery goes back to queued (sent
--   again if the challenge is reopened), and (i, 0) is returned.
-- With PostgreSQL (take_locks) each batch holds a shared transaction lock on the challenges
-- of its articles, and a phase change takes it exclusively (ChallengeRepository.changePhase):
-- a change waits for the batches writing, and the batches after it see the new phase. So
-- no attempt begins, and no answer is stored, after a close has committed.
-- Returns: every begin (n > 0 started, null answered already, 0 closed); (i, 1) for every
-- end that stored a new answer; (i, 0) for every end refused because the challenge is closed.
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
    from starting s where at.article_id = s.article_id and at.server_id = s.server_id and at.outcome is null
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
