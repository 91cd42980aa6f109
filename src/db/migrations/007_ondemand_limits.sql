-- Bounds on what anyone can make the meta-server hold: each on-demand article records who
-- submitted it (team:<id>, admin, or ip:<address>; IPv6 by /64), so that the on-demand
-- articles still waiting can be counted per client and in total (src/articles/on-demand-limits.ts).
alter table articles add column submitted_by text;

-- Articles just submitted that have no delivery yet are counted as waiting for a while;
-- this finds them without reading every article ever submitted.
create index articles_by_challenge_created on articles (challenge_id, created_at);
