-- Task names have one list, the registry of task families (src/families/registry.ts).
-- This table holds every name the registry has had: migrate() writes the registry's names
-- at each start, after the migrations. The tables that name a task refer to it instead of
-- listing the names in check constraints, so adding a family needs no migration and the
-- database still refuses a task it has never heard of. Whether a task supports what is
-- stored (an ensemble needs a family of ranked lists) is checked by the application.

create table task_families (
  name text primary key
);

-- Names stored before this migration stay valid.
insert into task_families (name)
  select task from gold_standards union select task from offline_runs union select task from ensemble_models
  on conflict do nothing;

alter table gold_standards drop constraint gold_standards_task_check, add foreign key (task) references task_families (name);
alter table offline_runs drop constraint offline_runs_task_check, add foreign key (task) references task_families (name);
alter table ensemble_models drop constraint ensemble_models_task_check, add foreign key (task) references task_families (name);
