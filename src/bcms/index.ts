// The BCMS read API's method table: annotations, consensus, resources and introspection,
// in the order system.listMethods gives them; and what the table reads, by name.
import { annotationMethods } from './annotations.ts';
import { consensusMethodsApi, type ConsensusDeps } from './consensus.ts';
import { introspectionMethods } from './introspection.ts';
import type { BcmsMethod } from './method.ts';
import { resourceMethods, type ResourceRepositories } from './resources.ts';

export { callMethod, type BcmsMethod } from './method.ts';
export { Fault, FAULT } from './faults.ts';
export { answerToWire } from './wire.ts';

/** What the methods read, handed over by the composition root: each group's repositories (and the ensemble view). */
export type BcmsDeps = ConsensusDeps & ResourceRepositories;

export function bcmsMethods(deps: BcmsDeps): ReadonlyMap<string, BcmsMethod> {
  const table = new Map<string, BcmsMethod>();
  const methods = [
    ...annotationMethods(deps),
    ...consensusMethodsApi(deps),
    ...resourceMethods(deps),
    ...introspectionMethods(() => table),
  ];
  for (const method of methods) table.set(method.name, method);
  return table;
}
