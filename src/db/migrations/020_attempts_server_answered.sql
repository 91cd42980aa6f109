-- A server's attempts by start time (attempts_server) only for its answered ones, which is all
-- the server page's response times and histogram read (the failed ones have their own index,
-- migration 017).
--
-- Why: dispatch_write_batch ends an attempt by its (article, server, n) — one row through the
-- unique index. But PL/pgSQL keeps a session's plan, and one made while the attempts table
-- was still small (a new installation, a first challenge) took attempts_server instead,
-- reading every attempt of the server for each one ending: the settle rate fell from ~380 to
-- ~200 pairs a second within 60,000 pairs, with 1.3 million index entries read per second.
-- An index that holds only answered attempts cannot serve the update of an attempt not
-- answered yet, so no plan can make that choice again. It is also smaller: the start of each
-- attempt, and every failure, no longer leave an entry in it.
drop index attempts_server;
create index attempts_server_answered on attempts (server_id, started_at) where outcome = 'ok';
