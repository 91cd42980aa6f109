// Connection URLs (REDIS_URL, DATABASE_URL) carry passwords. Whatever prints or logs one
// passes it through here first, so a password never reaches a terminal, a log file or an
// error message someone pastes into an issue.

const HIDDEN = '***';

/**
 * The URL with its password shown as `***` (in the user part, or a `password=` query
 * parameter as PostgreSQL connection strings allow); a URL without one exactly as given.
 */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // Not a URL the parser takes, yet it may still hold `user:password@`: hide all of it,
    // up to the last `@` (a password may hold one).
    return url.replace(/\/\/.*@/s, `//${HIDDEN}@`);
  }
  const inQuery = parsed.searchParams.has('password');
  if (!parsed.password && !inQuery) return url;
  if (parsed.password) parsed.password = HIDDEN;
  if (inQuery) parsed.searchParams.set('password', HIDDEN);
  return parsed.toString();
}
