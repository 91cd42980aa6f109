-- Consensus and callbacks: trained ensemble models, versioned per challenge and task, and
-- the outcome of each on-demand article's completion callback.

-- A model is the JSON of src/consensus/ensemble.ts, kept as trained; a new training is a
-- new version, so a leaderboard row or an article view can name the model it used.
create table ensemble_models (
  id serial primary key,
  challenge_id integer not null references challenges (id),
  task text not null check (task in ('INT', 'IPT')),
  version integer not null,
  model jsonb not null,
  created_at timestamptz not null default now(),
  unique (challenge_id, task, version)
);

-- One row per article with a callbackUrl once it became done. The row is written before
-- the first try and marked delivered after a 2xx answer, so a job run twice (a worker
-- killed after posting, or a duplicate enqueue) sees it delivered and does not post again.
create table callback_deliveries (
  article_id uuid primary key references articles (id),
  url text not null,
  state text not null default 'pending' check (state in ('pending', 'delivered', 'failed', 'refused')),
  attempts integer not null default 0,
  last_status integer,
  last_error text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  delivered_at timestamptz
);
