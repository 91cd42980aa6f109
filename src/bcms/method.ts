// One method of the BCMS read API, with what introspection tells about it, and the call
// of one by name: the parameter count is checked here against the signatures, each
// parameter's type and value by the method itself.
import type { EncodableValue, XmlRpcValue } from '../xmlrpc/codec.ts';
import { Fault, FAULT } from './faults.ts';

export interface BcmsMethod {
  name: string;
  /** How to call it, for faults and help: `Annotations.getAnnotation(article: int|string, serverId: int) → struct`. */
  usage: string;
  /** XML-RPC introspection signatures: the result type, then the parameter types. */
  signatures: string[][];
  /** What it does and answers (system.methodHelp). */
  help: string;
  run(params: XmlRpcValue[]): Promise<EncodableValue>;
}

export async function callMethod(methods: ReadonlyMap<string, BcmsMethod>, name: string, params: XmlRpcValue[]): Promise<EncodableValue> {
  const method = methods.get(name);
  if (!method) {
    throw new Fault(
      FAULT.unknownMethod,
      `unknown method "${name}"; this server answers ${[...methods.keys()].join(', ')} (system.methodHelp(name) describes each)`,
    );
  }
  const counts = [...new Set(method.signatures.map((s) => s.length - 1))].sort();
  if (!counts.includes(params.length)) {
    const expected = counts.length === 1 ? `${counts[0]}` : `${counts.slice(0, -1).join(', ')} or ${counts.at(-1)}`;
    throw new Fault(FAULT.badParams, `${name} takes ${expected} parameter(s), not ${params.length}: send ${method.usage}`);
  }
  return await method.run(params);
}

/** A server id: an int (a decimal string too, as some clients send every value as a string). */
export function serverIdParam(value: XmlRpcValue | undefined, usage: string): number {
  const id = typeof value === 'number' ? value : typeof value === 'string' && /^[1-9][0-9]{0,9}$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(id) || id < 1 || id > 2147483647) throw new Fault(FAULT.badParams, `a server id is a positive int: send ${usage}`);
  return id;
}
