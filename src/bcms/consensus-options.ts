// The options struct of Consensus.getConsensus, as BC-VisCon's clients sent it:
//   {servers: [int], methods: [string], weights: struct server id → int, threshold: int percent}
// All optional. Choices where BC-VisCon was silent:
// - `servers` picks among the servers the article was sent to; naming another one is a
//   fault (a typo would otherwise pass unnoticed). An empty list is a fault too.
// - `weights` is a table: servers it names that are not chosen or were not sent the
//   article are ignored, so one table serves every article. Weights are ≥ 0 (0: leave the
//   server out); a double is taken as it is. Default 1.
// - `threshold` is a percentage of the total weight, 0–100 (a double is taken as it is);
//   default 50.
// - Unknown option names are a fault naming the known ones.
import { isXmlRpcStruct, type XmlRpcValue } from '../xmlrpc/codec.ts';
import { Fault, FAULT } from './faults.ts';
import { serverIdParam } from './method.ts';

export interface ConsensusOptions {
  servers?: number[];
  methods?: string[];
  /** Server id → weight. */
  weights: Record<number, number>;
  /** A fraction of the total weight, in [0, 1]. */
  threshold: number;
}

const OPTION_NAMES = ['servers', 'methods', 'weights', 'threshold'];

export function readConsensusOptions(value: XmlRpcValue | undefined, usage: string): ConsensusOptions {
  const options: ConsensusOptions = { weights: {}, threshold: 0.5 };
  if (value === undefined) return options;
  const bad = (what: string) => new Fault(FAULT.badParams, `${what}: send ${usage}`);
  if (!isXmlRpcStruct(value)) throw bad('the options are a struct {servers?, methods?, weights?, threshold?}');
  for (const name of Object.keys(value)) {
    if (!OPTION_NAMES.includes(name)) throw bad(`unknown option "${name}"; the options are ${OPTION_NAMES.join(', ')}`);
  }
  const { servers, methods, weights, threshold } = value;
  if (servers !== undefined) {
    if (!Array.isArray(servers) || servers.length === 0)
      throw bad('servers is a non-empty array of server ids (leave it out for every server)');
    options.servers = servers.map((s) => serverIdParam(s, usage));
  }
  if (methods !== undefined) {
    if (!Array.isArray(methods) || methods.length === 0 || !methods.every((m) => typeof m === 'string' && m !== '')) {
      throw bad('methods is a non-empty array of consensus method ids (Consensus.getConsensusMethods() lists them)');
    }
    options.methods = [...new Set(methods as string[])];
  }
  if (weights !== undefined) {
    if (!isXmlRpcStruct(weights)) throw bad('weights is a struct of server id → weight');
    for (const [key, weight] of Object.entries(weights)) {
      if (!/^[1-9][0-9]{0,9}$/.test(key)) throw bad(`weights: "${key}" is not a server id (name each member by the server's id, e.g. "3")`);
      if (typeof weight !== 'number' || !Number.isFinite(weight) || weight < 0)
        throw bad(`weights: the weight of server ${key} must be a number ≥ 0`);
      options.weights[Number(key)] = weight;
    }
  }
  if (threshold !== undefined) {
    if (typeof threshold !== 'number' || !(threshold >= 0 && threshold <= 100))
      throw bad('threshold is a percentage of the total weight, an int from 0 to 100');
    options.threshold = threshold / 100;
  }
  return options;
}
