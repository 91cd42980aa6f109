// The BCMS read API's method table: annotations, consensus, resources and introspection,
// in the order system.listMethods gives them.
import type { AppContext } from '../app-context.ts';
import { annotationMethods } from './annotations.ts';
import { consensusMethodsApi } from './consensus.ts';
import { introspectionMethods } from './introspection.ts';
import type { BcmsMethod } from './method.ts';
import { resourceMethods } from './resources.ts';

export { callMethod, type BcmsMethod } from './method.ts';
export { Fault, FAULT } from './faults.ts';
export { answerToWire } from './wire.ts';

export function bcmsMethods(ctx: AppContext): ReadonlyMap<string, BcmsMethod> {
  const table = new Map<string, BcmsMethod>();
  const methods = [...annotationMethods(ctx), ...consensusMethodsApi(ctx), ...resourceMethods(ctx), ...introspectionMethods(() => table)];
  for (const method of methods) table.set(method.name, method);
  return table;
}
