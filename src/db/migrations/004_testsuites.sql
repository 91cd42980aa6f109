-- Test suites run through dispatch (src/testsuites/routes.ts). A run is a challenge of its
-- own whose articles are the suite's items; the suite document (manifest with features and
-- gold) is kept here so that reports can be rebuilt from the stored answers at any time.

create table testsuites (
  id serial primary key,
  name text not null unique,
  challenge_id integer not null unique references challenges (id),
  -- The suite.json manifest form, with each item's gold (text, sgml, mentions) inline.
  suite jsonb not null,
  created_at timestamptz not null default now()
);

-- Which registered server each copy in the suite challenge was made from, so a report can
-- be asked for by either id.
create table testsuite_servers (
  testsuite_id integer not null references testsuites (id),
  source_server_id integer not null references servers (id),
  server_id integer not null unique references servers (id),
  primary key (testsuite_id, source_server_id)
);
