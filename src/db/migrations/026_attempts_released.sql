-- A lease given back by a pull server's agent (it was stopping, its own server did not
-- answer, or it stopped renewing the lease) gets an outcome of its own, `released`. It was
-- recorded as `interrupted`, the outcome of a meta-server worker stopping mid-request, and
-- told apart only by its detail; the server page listed it among the failures. Neither
-- counts against the server, but a release is the agent's word, not our fault, and the page
-- shows it on its own line.
alter table attempts drop constraint attempts_outcome_check;
alter table attempts add constraint attempts_outcome_check
  check (outcome in ('ok', 'timeout', 'connection', 'http', 'protocol', 'fault', 'invalid', 'interrupted', 'released'));

-- The releases recorded before: every one's detail opens with these words (pull/lease-service.ts).
update attempts set outcome = 'released'
  where outcome = 'interrupted' and detail like 'the agent gave the article back%';
update deliveries set last_outcome = 'released'
  where last_outcome = 'interrupted' and last_detail like 'the agent gave the article back%';
