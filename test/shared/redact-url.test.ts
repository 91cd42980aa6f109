// A connection URL printed or logged shows everything but its password.
import { describe, expect, it } from 'vitest';
import { redactUrl } from '../../src/shared/redact-url.ts';

describe('redactUrl', () => {
  it('leaves a URL without a password exactly as given', () => {
    expect(redactUrl('redis://127.0.0.1:6379')).toBe('redis://127.0.0.1:6379');
    expect(redactUrl('rediss://user@redis.example.org:6380/0')).toBe('rediss://user@redis.example.org:6380/0');
    expect(redactUrl('postgresql:///metaserver?host=/run/postgresql')).toBe('postgresql:///metaserver?host=/run/postgresql');
    expect(redactUrl('')).toBe('');
  });

  it('hides the password and keeps the user, host, port, path and query', () => {
    expect(redactUrl('rediss://user:s3cret@host:6380/0')).toBe('rediss://user:***@host:6380/0');
    expect(redactUrl('postgres://app:s3cret@db:5432/meta?sslmode=require')).toBe('postgres://app:***@db:5432/meta?sslmode=require');
  });

  it('hides a password given without a user', () => {
    expect(redactUrl('redis://:pw@h')).toBe('redis://:***@h');
  });

  it('hides a percent-encoded password whole', () => {
    const shown = redactUrl('redis://user:p%40ss%2Fw0rd@h:6379');
    expect(shown).toBe('redis://user:***@h:6379');
    expect(shown).not.toContain('p%40ss');
  });

  it('hides a password given as a query parameter', () => {
    expect(redactUrl('postgres://db/meta?user=app&password=s3cret')).toBe('postgres://db/meta?user=app&password=***');
  });

  it('hides everything between // and @ of a string that does not parse', () => {
    const shown = redactUrl('redis://user:s3cr@t@[bad-host:6379');
    expect(shown).toBe('redis://***@[bad-host:6379');
    expect(shown).not.toContain('s3cr');
    expect(redactUrl('not a url')).toBe('not a url');
  });
});
