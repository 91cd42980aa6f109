// Small built-in word lists the feature extractors consult. They are deliberately short
// and hand-picked: each exists to make one fault model testable (a stoplist, a keyword
// heuristic, a dictionary lookup), not to be a linguistic resource.

/** English function words (articles, prepositions, conjunctions, negators, pronouns). */
export const FUNCTION_WORDS: ReadonlySet<string> = new Set([
  'a', 'an', 'the', 'of', 'and', 'or', 'nor', 'but', 'for', 'in', 'on', 'at', 'to', 'by', 'with',
  'from', 'into', 'onto', 'as', 'than', 'against', 'without', 'within', 'between', 'under', 'over',
  'not', 'no', 'is', 'are', 'be', 'it', 'its', 'this', 'that', 'if', 'so', 'up', 'out', 'off', 'yet',
]);

/**
 * Everyday English words that also occur in gene names (mostly Drosophila-style names).
 * Domain vocabulary (protein, kinase, receptor …) is left out on purpose: the lexical
 * feature asks whether a name could be mistaken for ordinary prose.
 */
export const COMMON_WORDS: ReadonlySet<string> = new Set([
  'bag', 'marbles', 'hedgehog', 'notch', 'white', 'yellow', 'brown', 'ebony', 'scarlet', 'giant',
  'snail', 'twist', 'cut', 'string', 'punt', 'fat', 'numb', 'grim', 'reaper', 'broad', 'star',
  'cactus', 'period', 'cycle', 'clock', 'swiss', 'cheese', 'sonic', 'death', 'heat', 'shock',
  'growth', 'signal', 'box', 'family', 'member', 'target', 'inner', 'outer', 'dead', 'big',
  'brain', 'naked', 'paired', 'skipped', 'forked', 'singed', 'glued', 'expanded', 'pointed',
  'bound', 'large', 'discs', 'mothers', 'sister', 'son', 'bride', 'daughter', 'warts', 'crumbs',
  'hippo', 'twine', 'polo', 'runt', 'glass', 'eyeless', 'wingless', 'heartless', 'timeless',
  'armadillo', 'toll', 'torpedo', 'shaggy', 'slit', 'roundabout', 'groucho', 'cinnabar',
  'vermilion', 'rosy', 'hairy', 'dorsal', 'tinman', 'pumpkin', 'saxophone', 'bazooka', 'stardust',
  'shotgun', 'salvador', 'yorkie', 'chico', 'thor', 'merlin', 'miranda', 'antarctic', 'scott',
  'ken', 'barbie', 'light', 'chain', 'heavy', 'type', 'class', 'factor', 'cell', 'surface',
  'skin', 'yet', 'blind', 'less', 'major', 'distal', 'crinkled', 'larvae', 'lethal',
  'date', 'cheap', 'bomb', 'mind', 'combs', 'reduced', 'deformed', 'fruitless', 'broken', 'blood',
]);

/** Lower-case spellings of the Greek letters, as written in names (`alpha`, `beta` …). */
export const GREEK_NAMES: readonly string[] = [
  'alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta', 'iota', 'kappa', 'lambda',
  'mu', 'nu', 'xi', 'omicron', 'pi', 'rho', 'sigma', 'tau', 'upsilon', 'phi', 'chi', 'psi', 'omega',
];

/**
 * Short Greek names collide with ordinary symbols (PI3K, ETA, MU …), so they count as
 * Greek letters only when written in lower case.
 */
export const SHORT_GREEK: ReadonlySet<string> = new Set(GREEK_NAMES.filter((g) => g.length <= 3));

/** Words ending in -ed / -ing that are not participles. */
export const NOT_PARTICIPLES: ReadonlySet<string> = new Set([
  'bed', 'red', 'seed', 'need', 'feed', 'shed', 'speed', 'breed', 'hundred', 'bleed', 'reed',
  'ring', 'king', 'thing', 'string', 'spring', 'wing', 'sing', 'sibling', 'ceiling', 'evening',
]);

/** Irregular past participles seen in gene names. */
export const IRREGULAR_PARTICIPLES: ReadonlySet<string> = new Set([
  'bound', 'broken', 'frozen', 'hidden', 'known', 'shown', 'lost', 'held', 'driven', 'grown', 'worn',
]);

/** Words ending in -s that are not plurals. */
export const NOT_PLURALS: ReadonlySet<string> = new Set([
  'less', 'apoptosis', 'thesis', 'genesis', 'analysis', 'virus', 'corpus', 'focus', 'status',
  'lens', 'gas', 'bias', 'atlas', 'chaos', 'canvas', 'always', 'whereas', 'perhaps', 'various',
]);

/** Keywords often associated with gene mentions: the bait of false-positive sentences. */
export const KEYWORDS: readonly string[] = [
  'gene', 'genes', 'protein', 'proteins', 'expression', 'expressed', 'mutant', 'mutants', 'mutation',
  'mutations', 'transcript', 'transcripts', 'promoter', 'receptor', 'receptors', 'kinase', 'enzyme',
  'allele', 'alleles', 'locus', 'mRNA', 'homolog', 'isoform', 'domain', 'antibody', 'factor',
];
