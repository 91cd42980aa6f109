// A big valid answer for the event-loop and memory tests and benches: `n` MENTION results,
// each {offset, mention}, over an article made of the mentioned words (100,000 mentions are
// ~17 MB of XML-RPC, the size a real server's answer to a long article reaches).
import { encodeMethodResponse } from '../../src/xmlrpc/codec.ts';

const WORDS = ['BRCA1', 'TP53', 'SNCA', 'α-synuclein', 'kinase'];

export function bigMentionAnswer(n: number): { text: string; body: Buffer } {
  const parts: string[] = [];
  const mentions: Array<{ offset: number; mention: string }> = [];
  let offset = 0; // code points
  for (let i = 0; i < n; i++) {
    const word = WORDS[i % WORDS.length];
    mentions.push({ offset, mention: word });
    parts.push(word);
    offset += [...word].length + 1;
  }
  return { text: parts.join(' '), body: Buffer.from(encodeMethodResponse({ mentions })) };
}
