-- REL challenges name their relation types (empty: DrugProt's 13) and, optionally, the
-- entity types each argument may have ({"arg1": ["CHEMICAL"], "arg2": ["GENE"]}; empty:
-- any given entity), as mention_types names MENTION's types.
alter table challenges add column relation_types text[] not null default '{}';
alter table challenges add column relation_arguments jsonb not null default '{}'::jsonb;
