// Boolean queries over features: `case=lower-initial AND numeral.position=final`,
// `NOT (type=fp OR length>=10)`. A tokenizer and a recursive-descent parser with
// precedence NOT > AND > OR; errors carry the column where the query went wrong.

import { parseBoolean, SPEC_BY_KEY, valuesOf } from './feature-specs.ts';
import type { FeatureValue } from './types.ts';

export type Comparator = '=' | '!=' | '<' | '<=' | '>' | '>=';
export type QueryNode =
  | { op: 'and' | 'or'; left: QueryNode; right: QueryNode }
  | { op: 'not'; operand: QueryNode }
  | { op: 'cmp'; key: string; cmp: Comparator; value: string; keyAt: number; valueAt: number };

export class QuerySyntaxError extends Error {
  constructor(
    readonly reason: string,
    readonly query: string,
    readonly position: number,
  ) {
    super(`${reason} (at column ${position + 1})\n  ${query}\n  ${' '.repeat(position)}^`);
    this.name = 'QuerySyntaxError';
  }
}

type Token = { kind: '(' | ')' | 'op' | 'word' | 'string' | 'end'; text: string; at: number };

function tokenize(query: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < query.length) {
    const ch = query[i];
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    if (ch === '(' || ch === ')') {
      tokens.push({ kind: ch, text: ch, at: i++ });
      continue;
    }
    const op = /^(?:!=|<=|>=|=|<|>)/.exec(query.slice(i));
    if (op) {
      tokens.push({ kind: 'op', text: op[0], at: i });
      i += op[0].length;
      continue;
    }
    if (ch === '"') {
      let text = '';
      let j = i + 1;
      for (; j < query.length && query[j] !== '"'; j++) text += query[j] === '\\' && j + 1 < query.length ? query[++j] : query[j];
      if (j >= query.length) throw new QuerySyntaxError('unterminated quoted value', query, i);
      tokens.push({ kind: 'string', text, at: i });
      i = j + 1;
      continue;
    }
    if (ch === '!') throw new QuerySyntaxError('"!" must be followed by "=" (use NOT to negate)', query, i);
    const word = /^[^\s()=!<>"]+/.exec(query.slice(i))!;
    tokens.push({ kind: 'word', text: word[0], at: i });
    i += word[0].length;
  }
  tokens.push({ kind: 'end', text: '', at: query.length });
  return tokens;
}

const isKeyword = (t: Token, k: string) => t.kind === 'word' && t.text.toUpperCase() === k;

export function parseQuery(query: string): QueryNode {
  const tokens = tokenize(query);
  let p = 0;
  const fail = (reason: string, at = tokens[p].at): never => {
    throw new QuerySyntaxError(reason, query, at);
  };
  const describe = (t: Token) => (t.kind === 'end' ? 'the end of the query' : `"${t.text}"`);

  function or(): QueryNode {
    let left = and();
    while (isKeyword(tokens[p], 'OR')) {
      p++;
      left = { op: 'or', left, right: and() };
    }
    return left;
  }
  function and(): QueryNode {
    let left = not();
    while (isKeyword(tokens[p], 'AND')) {
      p++;
      left = { op: 'and', left, right: not() };
    }
    return left;
  }
  function not(): QueryNode {
    if (isKeyword(tokens[p], 'NOT')) {
      p++;
      return { op: 'not', operand: not() };
    }
    return primary();
  }
  function primary(): QueryNode {
    const t = tokens[p];
    if (t.kind === '(') {
      p++;
      const inner = or();
      if (tokens[p].kind !== ')') fail(`expected ")" to close the "(" at column ${t.at + 1}, found ${describe(tokens[p])}`);
      p++;
      return inner;
    }
    if (t.kind !== 'word' || ['AND', 'OR', 'NOT'].some((k) => isKeyword(t, k)))
      fail(`expected a feature comparison such as case=all-upper, found ${describe(t)}`);
    if (!/^[A-Za-z_][A-Za-z0-9_.-]*$/.test(t.text)) fail(`"${t.text}" is not a feature name`);
    p++;
    const op = tokens[p];
    if (op.kind !== 'op') fail(`expected =, !=, <, <=, > or >= after "${t.text}", found ${describe(op)}`);
    p++;
    const value = tokens[p];
    if (value.kind !== 'word' && value.kind !== 'string') fail(`expected a value after "${op.text}", found ${describe(value)}`);
    p++;
    return { op: 'cmp', key: t.text, cmp: op.text as Comparator, value: value.text, keyAt: t.at, valueAt: value.at };
  }

  if (tokens[0].kind === 'end') fail('the query is empty');
  const tree = or();
  if (tokens[p].kind !== 'end') fail(`expected AND, OR or the end of the query, found ${describe(tokens[p])}`);
  return tree;
}

/** Checks keys and values against the feature inventory, so that typos fail loudly rather than select nothing. */
function checkQuery(node: QueryNode, query: string, keys: readonly string[]): void {
  if (node.op === 'not') {
    checkQuery(node.operand, query, keys);
    return;
  }
  if (node.op !== 'cmp') {
    checkQuery(node.left, query, keys);
    checkQuery(node.right, query, keys);
    return;
  }
  if (node.key === 'id') return;
  const spec = SPEC_BY_KEY.get(node.key);
  if (!spec || !keys.includes(node.key)) {
    throw new QuerySyntaxError(`unknown feature "${node.key}" here; known: id, ${keys.join(', ')}`, query, node.keyAt);
  }
  const numeric = ['<', '<=', '>', '>='].includes(node.cmp);
  if (numeric && spec.type !== 'number')
    throw new QuerySyntaxError(`"${node.cmp}" needs a numeric feature; ${node.key} is ${spec.type}`, query, node.keyAt);
  if (spec.type === 'number' && !Number.isFinite(Number(node.value)))
    throw new QuerySyntaxError(`${node.key} is a number, not "${node.value}"`, query, node.valueAt);
  if (spec.type === 'boolean' && parseBoolean(node.value) === undefined)
    throw new QuerySyntaxError(`${node.key} is y or n, not "${node.value}"`, query, node.valueAt);
  if (spec.values && !spec.values.some((v) => v.toLowerCase() === node.value.toLowerCase())) {
    throw new QuerySyntaxError(`${node.key} has no value "${node.value}"; values: ${spec.values.join(', ')}`, query, node.valueAt);
  }
}

export type Lookup = (key: string) => FeatureValue | undefined;

function equals(value: FeatureValue | undefined, wanted: string): boolean {
  if (value === undefined) return false;
  if (typeof value === 'number') return value === Number(wanted);
  if (typeof value === 'boolean') return value === parseBoolean(wanted);
  return valuesOf(value).some((v) => v.toLowerCase() === wanted.toLowerCase());
}

export function evaluate(node: QueryNode, lookup: Lookup): boolean {
  switch (node.op) {
    case 'and':
      return evaluate(node.left, lookup) && evaluate(node.right, lookup);
    case 'or':
      return evaluate(node.left, lookup) || evaluate(node.right, lookup);
    case 'not':
      return !evaluate(node.operand, lookup);
    case 'cmp': {
      const value = lookup(node.key);
      if (node.cmp === '=') return equals(value, node.value);
      if (node.cmp === '!=') return !equals(value, node.value);
      if (typeof value !== 'number') return false;
      const n = Number(node.value);
      return node.cmp === '<' ? value < n : node.cmp === '<=' ? value <= n : node.cmp === '>' ? value > n : value >= n;
    }
  }
}

/** Parses and checks a query; the result tells whether a record (id + features) matches. */
export function compileQuery(
  query: string,
  keys: readonly string[],
): (record: { id: string; features: Record<string, FeatureValue> }) => boolean {
  const tree = parseQuery(query);
  checkQuery(tree, query, keys);
  return (record) => evaluate(tree, (key) => (key === 'id' ? record.id : record.features[key]));
}
