-- The protocol an annotation server speaks (src/dispatch/annotators/registry.ts): xmlrpc,
-- as every server registered before spoke, json or pubannotation. No check constraint on
-- the names: the registry is the list (the API refuses any other name), so adding a
-- protocol needs no migration.
alter table servers add column if not exists protocol text not null default 'xmlrpc';
