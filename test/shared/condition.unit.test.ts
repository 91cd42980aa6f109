// A condition that holds for a while logs once when it starts and once when it is over,
// however many times it is met meanwhile (a 60 s database outage once wrote 14,047 lines).
import { describe, expect, it } from 'vitest';
import { Condition, type ConditionLog } from '../../src/shared/condition.ts';

function capture(): ConditionLog & { lines: { level: string; fields: object; message: string }[] } {
  const lines: { level: string; fields: object; message: string }[] = [];
  const at = (level: string) => (fields: object, message: string) => void lines.push({ level, fields, message });
  return { lines, warn: at('warn'), info: at('info'), debug: at('debug') };
}

function database(log: ConditionLog, clock: { t: number }): Condition {
  return new Condition({
    name: 'database unreachable',
    meanwhile: 'requests are put back and made again later, not counted against the servers',
    repeats: 'requests put back',
    log,
    now: () => clock.t,
  });
}

describe('Condition', () => {
  it('warns once when it starts, counts the repeats without a warning, and sums up once when it is over', () => {
    const log = capture();
    const clock = { t: Date.parse('2026-01-02T03:04:05.000Z') };
    const db = database(log, clock);
    expect(db.up).toBe(true);
    db.failed({ articleId: 'a0' });
    for (let i = 1; i < 500; i++) {
      clock.t += 100;
      db.failed({ articleId: `a${i}` });
    }
    const warnings = log.lines.filter((l) => l.level === 'warn');
    expect(warnings).toHaveLength(1);
    expect(warnings[0].message).toBe(
      'database unreachable since 2026-01-02T03:04:05.000Z: requests are put back and made again later, not counted against the servers',
    );
    expect(warnings[0].fields).toMatchObject({ articleId: 'a0' });
    expect(log.lines.filter((l) => l.level === 'info')).toEqual([]);
    expect(db.up).toBe(false);

    clock.t = Date.parse('2026-01-02T03:05:05.000Z');
    db.recovered();
    db.recovered();
    const infos = log.lines.filter((l) => l.level === 'info');
    expect(infos).toHaveLength(1);
    expect(infos[0].message).toBe('database unreachable no more: it lasted 60.0 s; 500 requests put back meanwhile');
    expect(infos[0].fields).toEqual({ ms: 60_000, repeats: 500 });
    expect(log.lines.filter((l) => l.level !== 'debug')).toHaveLength(2);
    expect(db.up).toBe(true);
    expect(db.occurrences).toBe(500);
  });

  it('starts a new spell after a recovery, and keeps counting the occurrences of all of them', () => {
    const log = capture();
    const clock = { t: 0 };
    const db = database(log, clock);
    db.failed();
    db.failed();
    db.recovered();
    clock.t = 5_000;
    db.failed();
    clock.t = 5_250;
    db.recovered();
    expect(log.lines.filter((l) => l.level === 'warn')).toHaveLength(2);
    expect(log.lines.filter((l) => l.level === 'info').map((l) => l.message)).toEqual([
      'database unreachable no more: it lasted 0.0 s; 2 requests put back meanwhile',
      'database unreachable no more: it lasted 0.3 s; 1 requests put back meanwhile',
    ]);
    expect(db.occurrences).toBe(3);
  });

  it('takes a check: down marks it down without a warning, up ends a spell', () => {
    const log = capture();
    const db = database(log, { t: 0 });
    db.checked(false);
    expect(db.up).toBe(false);
    expect(log.lines).toEqual([]);
    db.checked(true);
    expect(db.up).toBe(true);
    expect(log.lines).toEqual([]);
    db.failed();
    db.checked(true);
    expect(log.lines.map((l) => l.level)).toEqual(['warn', 'info']);
  });
});
