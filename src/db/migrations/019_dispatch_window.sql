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

-- The open attempt of a pair is found through the unique (article, server, n) index; an
-- index of its own cost ~55 bytes per settled pair (every attempt enters it when it begins).
drop index attempts_open;
