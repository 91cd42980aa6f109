// The two official BIO scorers, reduced to how they read a file and count, following their
// documented rules line by line, so a test can tell whether they score an export as we do:
// - conlleval.pl (CoNLL-2000/2003, version 2004-01-26): one input of lines "token … correct
//   guessed", fields split by the -d delimiter (Perl split drops trailing empty fields);
//   every line must have as many fields as the first one (else "unexpected number of
//   features" and exit 1); an empty line or one whose first field is "-X-" is a boundary;
//   chunks start and end by its startOfChunk/endOfChunk rules.
// - evalbio.pl (the AnEM/AnatEM variant of the JNLPBA 2004 evalIOB2.pl): a prediction and
//   a gold file read in lockstep; TAB-separated, the tag is the last field; a sentence is
//   scored at the empty line that ends it, so the last one needs a final empty line
//   ("missing final empty line in input"); IOB sequences and the classes are checked
//   unless -s; the tags are turned into IOBES and counted by their first letters.
// Written for the tests from the scripts' documented behaviour; no code of theirs is copied.

export interface ConllevalResult {
  tokens: number;
  foundCorrect: number;
  foundGuessed: number;
  correctChunks: number;
  precision: number;
  recall: number;
  fb1: number;
}

const perlSplit = (line: string, delimiter: string): string[] => {
  const fields = line.split(delimiter);
  while (fields.length > 0 && fields[fields.length - 1] === '') fields.pop();
  return fields;
};

/** `paste gold run | cut -f 1,2,4`: the token, the gold tag and the run's tag on one line. */
export function pasteGoldAndRun(gold: string, run: string): string {
  const g = gold.split('\n');
  const r = run.split('\n');
  if (g[g.length - 1] === '') g.pop();
  if (r[r.length - 1] === '') r.pop();
  const lines: string[] = [];
  for (let i = 0; i < Math.max(g.length, r.length); i++) {
    const fields = `${g[i] ?? ''}\t${r[i] ?? ''}`.split('\t');
    lines.push([fields[0], fields[1], fields[3]].filter((f) => f !== undefined).join('\t'));
  }
  return lines.map((l) => `${l}\n`).join('');
}

function splitTag(tag: string): [string, string] {
  const m = /^([^-]*)-(.*)$/.exec(tag);
  return m ? [m[1], m[2]] : [tag, ''];
}

function endOfChunk(prevTag: string, tag: string, prevType: string, type: string): boolean {
  let end = false;
  if (prevTag === 'B' && (tag === 'B' || tag === 'O')) end = true;
  if (prevTag === 'I' && (tag === 'B' || tag === 'O')) end = true;
  if (prevTag === 'E' && (tag === 'E' || tag === 'I' || tag === 'O')) end = true;
  if (prevTag !== 'O' && prevTag !== '.' && prevType !== type) end = true;
  if (prevTag === ']' || prevTag === '[') end = true;
  return end;
}

function startOfChunk(prevTag: string, tag: string, prevType: string, type: string): boolean {
  let start = false;
  if (tag === 'B' && (prevTag === 'B' || prevTag === 'I' || prevTag === 'O')) start = true;
  if (prevTag === 'O' && tag === 'I') start = true;
  if (tag === 'E' && (prevTag === 'E' || prevTag === 'O')) start = true;
  if (prevTag === 'E' && tag === 'I') start = true;
  if (tag !== 'O' && tag !== '.' && prevType !== type) start = true;
  if (tag === '[' || tag === ']') start = true;
  return start;
}

/** conlleval.pl -d DELIMITER < input: the overall figures, or an Error where it stops. */
export function conlleval(input: string, delimiter = ' '): ConllevalResult {
  const boundary = '-X-';
  let features = -1;
  let lastCorrect = 'O';
  let lastCorrectType = '';
  let lastGuessed = 'O';
  let lastGuessedType = '';
  let inCorrect = false;
  const r = { tokens: 0, foundCorrect: 0, foundGuessed: 0, correctChunks: 0 };
  const lines = input.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  for (const line of lines) {
    let f = perlSplit(line, delimiter);
    if (features < 0) features = f.length - 1;
    else if (features !== f.length - 1 && f.length !== 0) throw new Error(`unexpected number of features: ${f.length} (${features + 1})`);
    if (f.length === 0 || f[0] === boundary) f = [boundary, 'O', 'O'];
    if (f.length < 2) throw new Error(`conlleval: unexpected number of features in line ${line}`);
    const [tag, guessedType] = splitTag(f[f.length - 1]);
    let guessed = tag;
    const [correct, correctType] = splitTag(f[f.length - 2]);
    const first = f[0];
    if (first === boundary) guessed = 'O';
    if (inCorrect) {
      const endC = endOfChunk(lastCorrect, correct, lastCorrectType, correctType);
      const endG = endOfChunk(lastGuessed, guessed, lastGuessedType, guessedType);
      if (endC && endG && lastGuessedType === lastCorrectType) {
        inCorrect = false;
        r.correctChunks++;
      } else if (endC !== endG || guessedType !== correctType) inCorrect = false;
    }
    const startC = startOfChunk(lastCorrect, correct, lastCorrectType, correctType);
    const startG = startOfChunk(lastGuessed, guessed, lastGuessedType, guessedType);
    if (startC && startG && guessedType === correctType) inCorrect = true;
    if (startC) r.foundCorrect++;
    if (startG) r.foundGuessed++;
    if (first !== boundary) r.tokens++;
    lastGuessed = guessed;
    lastCorrect = correct;
    lastGuessedType = guessedType;
    lastCorrectType = correctType;
  }
  if (inCorrect) r.correctChunks++;
  const precision = r.foundGuessed > 0 ? (100 * r.correctChunks) / r.foundGuessed : 0;
  const recall = r.foundCorrect > 0 ? (100 * r.correctChunks) / r.foundCorrect : 0;
  const fb1 = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
  return { ...r, precision, recall, fb1 };
}

/** The entity classes evalbio.pl knows (AnEM); others are an error unless single-class. */
export const ANEM_CLASSES = [
  'Anatomical_system',
  'Cancer',
  'Cell',
  'Cellular_component',
  'Developing_anatomical_structure',
  'Immaterial_anatomical_entity',
  'Multi-tissue_structure',
  'Organ',
  'Organism_subdivision',
  'Organism_substance',
  'Pathological_formation',
  'Tissue',
];

export interface EvalbioCounts {
  /** Gold mentions, predicted mentions, and matches: complete, left boundary, right boundary. */
  gold: number;
  predicted: number;
  complete: number;
  left: number;
  right: number;
}

function checkSequence(tags: string[], singleClass: boolean): void {
  let prevIob = '';
  let prevCls = '';
  for (const tag of tags) {
    const iob = tag.slice(0, 1);
    let cls = '';
    if (tag.slice(1, 2) === '-') {
      cls = tag.slice(2);
      if (!singleClass && !ANEM_CLASSES.includes(cls)) throw new Error(`Error: unknown class "${cls}"`);
    }
    if (singleClass) cls = '';
    if (iob === 'I' && prevIob !== 'I' && prevIob !== 'B') throw new Error('IOB error: "I" without preceding "B"');
    if (iob === 'I' && prevCls !== cls) throw new Error(`IOB error: type change without "B" (${prevCls} -> ${cls})`);
    [prevIob, prevCls] = [iob, cls];
  }
}

function iob2iobes(tags: string[]): string[] {
  return tags.map((tag, i) => {
    const nextIsI = i < tags.length - 1 && tags[i + 1].startsWith('I');
    if (tag.startsWith('I') && !nextIsI) return `E${tag.slice(1)}`;
    if (tag.startsWith('B') && !nextIsI) return `S${tag.slice(1)}`;
    return tag;
  });
}

/** evalbio.pl [-1] PREDICTIONS GOLD: the [-ALL-] counts, or an Error where it dies. */
export function evalbio(predictions: string, gold: string, options: { singleClass?: boolean } = {}): EvalbioCounts {
  const singleClass = options.singleClass ?? false;
  const classes = singleClass ? [''] : ANEM_CLASSES;
  const counts = new Map(classes.map((c) => [c, { gold: 0, predicted: 0, complete: 0, left: 0, right: 0 }]));
  const bump = (cls: string, key: keyof EvalbioCounts) => {
    const c = counts.get(cls) ?? { gold: 0, predicted: 0, complete: 0, left: 0, right: 0 };
    c[key]++;
    counts.set(cls, c);
  };
  const readLines = (text: string) => {
    const lines = text.split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    return lines;
  };
  const goldLines = readLines(gold);
  const predLines = readLines(predictions);
  let rtags: string[] = [];
  let atags: string[] = [];
  for (let n = 0, p = 0; n < goldLines.length; n++, p++) {
    const rline = goldLines[n];
    if (p >= predLines.length) throw new Error('insufficient predictions.');
    const aline = predLines[p];
    if (rline === '') {
      if (aline !== '') throw new Error(`sentence alignment error at line ${n + 1}.`);
      checkSequence(rtags, singleClass);
      checkSequence(atags, singleClass);
      const r = iob2iobes(rtags);
      const a = iob2iobes(atags);
      let match = false;
      for (let i = 0; i < r.length; i++) {
        const riob = r[i].slice(0, 1);
        const aiob = a[i].slice(0, 1);
        const rtag = singleClass ? riob : r[i];
        const atag = singleClass ? aiob : a[i];
        const rcls = rtag.slice(1, 2) === '-' ? rtag.slice(2) : '';
        const acls = atag.slice(1, 2) === '-' ? atag.slice(2) : '';
        if (riob === 'S' || riob === 'B') bump(rcls, 'gold');
        if (aiob === 'S' || aiob === 'B') bump(acls, 'predicted');
        if (acls === rcls) {
          if (aiob === 'S' && riob === 'S') ['complete', 'left', 'right'].forEach((k) => bump(rcls, k as keyof EvalbioCounts));
          if ((aiob === 'S' && riob === 'E') || (aiob === 'E' && riob === 'S')) bump(rcls, 'right');
          if ((aiob === 'S' && riob === 'B') || (aiob === 'B' && riob === 'S')) bump(rcls, 'left');
          if (aiob === 'B' && riob === 'B') {
            bump(rcls, 'left');
            match = true;
          }
          if (aiob === 'E' && riob === 'E') {
            bump(rcls, 'right');
            if (match) bump(rcls, 'complete');
          }
        }
        if (atag !== rtag || (aiob !== 'B' && aiob !== 'I')) match = false;
      }
      rtags = [];
      atags = [];
    } else if (rline.startsWith('###MEDLINE:')) {
      n++;
      p++;
      if (n >= goldLines.length) throw new Error('suspicious error at the end of the gold file.');
      if (p >= predLines.length) throw new Error('suspicious error at the end of the prediction file.');
      if (goldLines[n] !== '' || predLines[p] !== '') throw new Error(`format mismatch error at the line ${n + 1}.`);
    } else {
      rtags.push(perlSplit(rline, '\t').at(-1) ?? '');
      atags.push(perlSplit(aline, '\t').at(-1) ?? '');
    }
  }
  if (rtags.length > 0 || atags.length > 0) throw new Error('Error: missing final empty line in input');
  const all = { gold: 0, predicted: 0, complete: 0, left: 0, right: 0 };
  for (const cls of classes) {
    const c = counts.get(cls)!;
    for (const key of Object.keys(all) as Array<keyof EvalbioCounts>) all[key] += c[key];
  }
  return all;
}
