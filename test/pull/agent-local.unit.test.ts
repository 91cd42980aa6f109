// The agent's side of the team's server, without a meta-server: `--exec` runs a command per
// article (the lease's article as JSON on standard input, the answer's JSON on standard
// output), and a failing or silent command becomes a message the agent reports as a fault.
import { describe, expect, it } from 'vitest';
import { execCommand } from '../../src/agent/local-server.ts';
import type { LeaseArticle } from '../../src/agent/meta-link.ts';

const ARTICLE: LeaseArticle = { text: 'BRCA1 (P38398) binds 😀.', tasks: ['INT'] };

describe('--exec', () => {
  it('hands the article on standard input and reads the answer from standard output', async () => {
    const local = execCommand(
      `python3 -c 'import json,sys; a=json.load(sys.stdin); print(json.dumps({"normalizations": [{"dbid": "P38398", "rank": 1, "confidence": 1}], "seen": a["text"]}))'`,
      { maxAnswerBytes: 10_000 },
    );
    const out = await local.annotate(ARTICLE, 10_000, new AbortController().signal);
    expect(out).toEqual({ ok: true, answer: { normalizations: [{ dbid: 'P38398', rank: 1, confidence: 1 }], seen: ARTICLE.text } });
  });

  it('reports a failing command with its exit status and standard error', async () => {
    const out = await execCommand('cat >/dev/null; echo "model not loaded" >&2; exit 3', { maxAnswerBytes: 10_000 }).annotate(
      ARTICLE,
      10_000,
      new AbortController().signal,
    );
    expect(out).toEqual({ ok: false, message: 'the command exited with 3: model not loaded' });
  });

  it('reports output that is not JSON, and a command past the deadline', async () => {
    const notJson = await execCommand('cat >/dev/null; echo hello', { maxAnswerBytes: 10_000 }).annotate(
      ARTICLE,
      10_000,
      new AbortController().signal,
    );
    expect(notJson.ok === false && notJson.message).toMatch(/^protocol: the command's output is not JSON/);
    const slow = await execCommand('sleep 5', { maxAnswerBytes: 10_000 }).annotate(ARTICLE, 300, new AbortController().signal);
    expect(slow).toEqual({ ok: false, message: "timeout: the command gave no answer within 0.3 s (the lease's deadline)" });
  });
});
