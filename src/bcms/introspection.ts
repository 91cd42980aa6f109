// The standard XML-RPC introspection methods (system.listMethods, system.methodHelp,
// system.methodSignature) over the API's own method table, themselves included.
import { Fault, FAULT } from './faults.ts';
import type { BcmsMethod } from './method.ts';

export function introspectionMethods(table: () => ReadonlyMap<string, BcmsMethod>): BcmsMethod[] {
  const named = (name: unknown, usage: string): BcmsMethod => {
    if (typeof name !== 'string') throw new Fault(FAULT.badParams, `the method name is a string: send ${usage}`);
    const method = table().get(name);
    if (!method) throw new Fault(FAULT.unknownMethod, `unknown method "${name}"; system.listMethods() lists them`);
    return method;
  };
  const list: BcmsMethod = {
    name: 'system.listMethods',
    usage: 'system.listMethods() → array of string',
    signatures: [['array']],
    help: 'The names of every method this server answers.',
    async run() {
      return [...table().keys()];
    },
  };
  const help: BcmsMethod = {
    name: 'system.methodHelp',
    usage: 'system.methodHelp(name: string) → string',
    signatures: [['string', 'string']],
    help: 'What a method does and answers, with how to call it.',
    async run([name]) {
      const method = named(name, help.usage);
      return `${method.usage}. ${method.help}`;
    },
  };
  const signature: BcmsMethod = {
    name: 'system.methodSignature',
    usage: 'system.methodSignature(name: string) → array of array of string',
    signatures: [['array', 'string']],
    help: 'The signatures of a method: arrays of XML-RPC type names, the result type first, then the parameter types.',
    async run([name]) {
      return named(name, signature.usage).signatures.map((s) => [...s]);
    },
  };
  return [list, help, signature];
}
