-- Concept identifiers and relations between concepts (BC5CDR, NCBI disease, NLM-Chem,
-- BioRED). mention_namespaces: the namespaces each entity type's ids may have
-- ({"Chemical": ["MESH"], "Disease": ["MESH", "OMIM"], "*": [...]}; empty: any well-formed
-- id). concept_relation_types: the CREL relation types (empty: BioRED's eight and BC5CDR's CID).
alter table challenges add column mention_namespaces jsonb not null default '{}'::jsonb;
alter table challenges add column concept_relation_types text[] not null default '{}';
