-- The core schema: challenges, teams, annotation servers, articles, and what happened
-- when each article was sent to each server (deliveries, attempts, answers).

create table settings (
  key text primary key,
  value text not null
);

create table challenges (
  id serial primary key,
  slug text not null unique,
  name text not null,
  tasks text[] not null,
  phase text not null default 'setup' check (phase in ('setup', 'test', 'closed')),
  timeout_seconds integer not null default 600 check (timeout_seconds > 0),
  max_attempts integer not null default 3 check (max_attempts > 0),
  retry_delay_seconds double precision not null default 30 check (retry_delay_seconds >= 0),
  servers_per_team integer not null default 5 check (servers_per_team > 0),
  mention_types text[] not null default '{}',
  created_at timestamptz not null default now()
);

create table teams (
  id serial primary key,
  name text not null unique,
  contact text not null,
  -- sha256 of the token: the token itself is shown once and never stored.
  token_hash text not null unique,
  created_at timestamptz not null default now()
);

create table servers (
  id serial primary key,
  challenge_id integer not null references challenges (id),
  team_id integer not null references teams (id),
  name text not null,
  url text not null,
  tasks text[] not null,
  method text not null,
  concurrency integer not null default 1 check (concurrency between 1 and 1000),
  send_metadata boolean not null default false,
  state text not null default 'paused' check (state in ('active', 'paused')),
  last_check jsonb,
  created_at timestamptz not null default now(),
  unique (challenge_id, team_id, name)
);

create table articles (
  id uuid primary key default gen_random_uuid(),
  -- Queue order: articles go to every server in the order they were loaded.
  seq bigserial not null unique,
  challenge_id integer not null references challenges (id),
  organiser_id text,
  text text not null,
  text_sha256 text not null,
  given text not null default '',
  source_format text not null default 'text',
  tasks text[],
  callback_url text,
  created_at timestamptz not null default now(),
  unique (challenge_id, organiser_id)
);

-- One row per (article, server) once the article is queued for that server.
create table deliveries (
  article_id uuid not null references articles (id),
  server_id integer not null references servers (id),
  state text not null default 'queued' check (state in ('queued', 'active', 'done', 'failed')),
  attempts integer not null default 0,
  last_outcome text,
  last_detail text,
  round integer not null default 0,
  updated_at timestamptz not null default now(),
  primary key (article_id, server_id)
);
create index deliveries_server_state on deliveries (server_id, state);

-- Every try, recorded when it starts, completed when it ends. An attempt whose worker died
-- stays without an outcome until the next attempt marks it interrupted.
create table attempts (
  id serial primary key,
  article_id uuid not null references articles (id),
  server_id integer not null references servers (id),
  n integer not null,
  started_at timestamptz not null default now(),
  ms integer,
  outcome text check (outcome in ('ok', 'timeout', 'connection', 'http', 'protocol', 'fault', 'invalid', 'interrupted')),
  detail text,
  errors jsonb,
  bytes_sent integer,
  bytes_received integer,
  unique (article_id, server_id, n)
);
create index attempts_server on attempts (server_id, started_at);

-- The stored answer: at most one per (article, server), whatever happens to the workers.
create table answers (
  article_id uuid not null references articles (id),
  server_id integer not null references servers (id),
  result jsonb not null,
  warnings jsonb not null default '[]',
  attempt_n integer not null,
  ms integer not null,
  bytes integer not null,
  stored_at timestamptz not null default now(),
  primary key (article_id, server_id)
);
