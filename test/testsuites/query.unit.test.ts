import { describe, expect, it } from 'vitest';
import { keysOfScope } from '../../src/testsuites/feature-specs.ts';
import { makeEntity, makeSentence } from '../../src/testsuites/catalogue.ts';
import { compileQuery, parseQuery, QuerySyntaxError } from '../../src/testsuites/query.ts';

const entities = [
  makeEntity({ id: 'p53', data: 'p53', kind: 'symbol' }),
  makeEntity({ id: 'dap6', data: 'death-associated protein 6', kind: 'name' }),
  makeEntity({ id: 'lox', data: '12-LOX', kind: 'symbol' }),
  makeEntity({ id: 'scott', data: 'scott of the antarctic', kind: 'name' }),
  makeEntity({ id: 'tp53', data: 'TP53', kind: 'symbol' }),
];
const select = (q: string) => entities.filter(compileQuery(q, keysOfScope('entity'))).map((e) => e.id);

function errorOf(q: string, keys = keysOfScope('entity')): QuerySyntaxError {
  try {
    compileQuery(q, keys);
  } catch (error) {
    return error as QuerySyntaxError;
  }
  throw new Error(`no error for ${q}`);
}

describe('query language', () => {
  it('parses precedence NOT > AND > OR and parentheses', () => {
    expect(parseQuery('a=1 OR b=2 AND NOT c=3')).toMatchObject({
      op: 'or',
      left: { op: 'cmp', key: 'a' },
      right: { op: 'and', right: { op: 'not' } },
    });
    expect(parseQuery('(a=1 OR b=2) AND c!=3')).toMatchObject({ op: 'and', left: { op: 'or' }, right: { cmp: '!=' } });
    expect(parseQuery('name="two words"')).toMatchObject({ value: 'two words' });
    expect(parseQuery('x=1 and y=2')).toMatchObject({ op: 'and' });
  });

  it('selects by set membership, booleans, numbers and ids', () => {
    expect(select('case=lower-initial AND numeral.position=final')).toEqual(['p53', 'dap6']);
    expect(select('case!=lower-initial')).toEqual(['lox', 'tp53']);
    expect(select('kind=symbol AND length>=4')).toEqual(['lox', 'tp53']);
    expect(select('length<4')).toEqual(['p53', 'dap6']);
    expect(select('function_word=y')).toEqual(['scott']);
    expect(select('function_word.which=of AND function_word.count=2')).toEqual(['scott']);
    expect(select('NOT (numeral=yes OR kind=name)')).toEqual([]);
    expect(select('id=lox OR participle.position=initial')).toEqual(['dap6', 'lox']);
  });

  it('selects sentences by type and slot position', () => {
    const sentences = [
      makeSentence({ id: 'a', text: '<> interacts with <> and <>.' }),
      makeSentence({ id: 'b', text: 'Binding requires <>.' }),
      makeSentence({ id: 'c', text: 'The impact on QoL was small.' }),
    ];
    const pick = (q: string) => sentences.filter(compileQuery(q, keysOfScope('sentence'))).map((s) => s.id);
    expect(pick('type=fp')).toEqual(['c']);
    expect(pick('slot.position=I')).toEqual(['a']);
    expect(pick('slot.position=F AND slot.count<=1')).toEqual(['b']);
    expect(pick('slot.right=period')).toEqual(['a', 'b']);
  });

  it('reports syntax errors with the column', () => {
    expect(errorOf('case=')).toMatchObject({ position: 5, reason: expect.stringMatching(/expected a value after "="/) });
    expect(errorOf('case lower')).toMatchObject({ position: 5, reason: expect.stringMatching(/expected =, !=/) });
    expect(errorOf('(kind=name')).toMatchObject({ position: 10, reason: expect.stringMatching(/"\)" to close the "\(" at column 1/) });
    expect(errorOf('kind=name kind=symbol')).toMatchObject({ position: 10, reason: expect.stringMatching(/expected AND, OR/) });
    expect(errorOf('AND kind=name').position).toBe(0);
    expect(errorOf('').reason).toMatch(/empty/);
    expect(errorOf('kind="name').reason).toMatch(/unterminated/);
    expect(errorOf('kind!name').reason).toMatch(/"!" must be followed by "="/);
    expect(errorOf('kind=name)').position).toBe(9);
    expect(errorOf('case=')).toBeInstanceOf(QuerySyntaxError);
    expect(errorOf('case=').message).toContain('\n  case=\n       ^');
  });

  it('reports unknown features and bad values where they are', () => {
    expect(errorOf('kind=name AND colour=red')).toMatchObject({ position: 14, reason: expect.stringMatching(/unknown feature "colour"/) });
    expect(errorOf('case=lowercase')).toMatchObject({
      position: 5,
      reason: expect.stringMatching(/no value "lowercase"; values: all-upper/),
    });
    expect(errorOf('length>=three').reason).toMatch(/length is a number/);
    expect(errorOf('case>=2').reason).toMatch(/needs a numeric feature/);
    expect(errorOf('numeral=maybe').reason).toMatch(/y or n/);
    expect(errorOf('type=fp').reason).toMatch(/unknown feature "type"/);
    expect(errorOf('kind=name', keysOfScope('sentence')).reason).toMatch(/unknown feature "kind"/);
  });
});
