-- Dispatch keeps the corpus in the database, not in Redis. A delivery row is written for
-- every article a server is to get as soon as it is due (all at once, whatever the corpus
-- size); Redis holds a bounded window of jobs per server, refilled from these rows, in
-- queue order, as pairs settle (src/dispatch/queue-window.ts).
--   in_queue: false while the delivery waits in the database for a place in the window;
--   set once its job is in Redis. Rows written before this release have their job in
--   Redis already (the default, true).
--   seq: the article's queue order, copied so that the window is filled from one index
--   without joining a million articles.
alter table deliveries add column in_queue boolean not null default true;
alter table deliveries add column seq bigint;
update deliveries d set seq = a.seq from articles a where a.id = d.article_id;

-- What the window is filled from: only the waiting rows are in it, so it stays small as
-- the run advances.
create index deliveries_waiting on deliveries (server_id, seq) where state = 'queued' and not in_queue;
-- What Redis should hold (the reconciler's check after Redis lost writes).
create index deliveries_in_queue on deliveries (server_id, seq) where in_queue and state in ('queued', 'active');
