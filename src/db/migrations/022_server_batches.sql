-- A server may take several articles in one call (its registration's batchSize): XML-RPC's
-- system.multicall, or a JSON array in the JSON and PubAnnotation protocols
-- (src/dispatch/annotators/batch.ts). Each article is still begun, judged, stored and retried
-- on its own; only the HTTP call is shared. 1: one article per call, as before.
alter table servers add column batch_size integer not null default 1 check (batch_size between 1 and 100);
