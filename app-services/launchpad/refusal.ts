/**
 * The launchpad's refusal rule: launchpad tokens are testnet-only and worth nothing, so a
 * name, symbol or description that promises rewards, airdrops, returns, yield, profit or
 * value is refused, while copy that disclaims them ("it has no value", "no rewards or
 * airdrops", "not an investment") passes.
 *
 * How a text is judged (refusalOf):
 *  1. it is made comparable: NFKC (full-width and ligature letters become plain ones),
 *     invisible format characters removed (soft hyphen, zero-width space/joiners, BOM),
 *     typographic apostrophes and dashes made ASCII;
 *  2. every DISCLAIMERS match is blanked out (see blankDisclaimers);
 *  3. what is left is searched with every REFUSAL_RULES pattern; the refusal reported is
 *     the leftmost match, the longest one at that place, then the first rule in the table.
 *
 * Disclaimers are built so they cannot swallow a promise: a negation ("no", "not",
 * "without", "never", ...) may only be followed by a short run of harmless filler words
 * ("any", "a", "monetary", "pay", "increase in", ...) and then a list of the promise
 * nouns joined by commas, "or", "and" or "nor". A promise adjective ("guaranteed", "high",
 * a number) ends the disclaimer, so "no fees and guaranteed returns" is still refused.
 *
 * Matching is case-insensitive and on word boundaries ("Harbour" is not "ROI"), except
 * two abbreviations matched only as "ROI"/"roi" and "APR"/"apr": the capitalised "Roi"
 * is a name and "Apr" a month.
 *
 * This is a guard against careless or casual promises, not a filter a determined writer
 * cannot get round; the tables are the policy and the tests show both sides of each row.
 */

export interface RefusalRule {
  /** what the text does, as the 400 message says it: "<field> <rule> (...)" */
  rule: string;
  pattern: RegExp;
}

export interface Disclaimer {
  /** what the phrase says, for readers of the table */
  disclaimer: string;
  pattern: RegExp;
}

export interface Refusal {
  rule: string;
  /** the refused words as they appear in the (NFKC-normalised) text */
  phrase: string;
}

/** Words that, after a negation, make a disclaimer ("no rewards", "not an investment"). */
const PROMISE_NOUNS = [
  'value',
  'worth',
  'returns?',
  'rewards?',
  'airdrops?',
  'air-drops?',
  'yields?',
  'profits?',
  'income',
  'interest',
  'earnings',
  'gains?',
  'dividends?',
  'payouts?',
  'payments?',
  'money',
  'cash',
  'investments?',
  'securit(?:y|ies)',
  'advice',
  'roi',
  'apy',
  'apr',
  'price',
  'upside',
  'appreciation',
  'tokens?',
];

/**
 * Words allowed between a negation and the promise nouns. None of them promises anything
 * by itself; a word not in this list (e.g. "guaranteed", "high", "risk", a number) breaks
 * the disclaimer, so the rules still see what follows.
 */
const FILLER = [
  'a',
  'an',
  'any',
  'the',
  'its',
  'their',
  'your',
  'it',
  'of',
  'to',
  'for',
  'in',
  'on',
  'or',
  'nor',
  'as',
  'be',
  'real',
  'actual',
  'monetary',
  'financial',
  'economic',
  'market',
  'resale',
  'intrinsic',
  'cash',
  'expected',
  'expectation',
  'promise[sd]?',
  'guarantee[sd]?',
  'right',
  'rights',
  'claim',
  'claims',
  'kind',
  'form',
  'sort',
  'type',
  'source',
  'free',
  'pay',
  'pays',
  'paid',
  'offer',
  'offers',
  'offered',
  'give',
  'gives',
  'carry',
  'carries',
  'have',
  'has',
  'hold',
  'holds',
  'provide',
  'provides',
  'represent',
  'represents',
  'confer',
  'confers',
  'entitle',
  'entitles',
  'generate',
  'generates',
  'earn',
  'earns',
  'produce',
  'produces',
  'bring',
  'brings',
  'grant',
  'grants',
  'increase',
  'rise',
  'grow',
  'gain',
  'go',
  'up',
  'become',
  'sold',
  'redeemed',
  'exchanged',
  'traded',
  'expect',
  'expects',
  'receive',
  'receives',
  'get',
  'gets',
  'holders?',
  'you',
  'anyone',
  'buyers?',
];

const NEGATION = String.raw`(?:no|not|non|never|neither|nor|without|zero|cannot|can't|won't|doesn't|don't|isn't|aren't|hasn't|haven't)`;
const SEP = String.raw`[\s-]+`;
const NOUN = String.raw`(?:${PROMISE_NOUNS.join('|')})`;
const LIST_SEP = String.raw`(?:\s*,\s*(?:(?:or|and|nor)\s+)?|\s+(?:or|and|nor)\s+)`;
// a noun followed by an amount ("returns of 10%") is a promise even in a list after "no"
const LISTED_NOUN = String.raw`(?:any\s+)?${NOUN}\b(?!\s*(?:of|up\s+to|above|over|around)?\s*\$?\d)`;
const NOUN_LIST = String.raw`${LISTED_NOUN}(?:${LIST_SEP}${LISTED_NOUN})*`;

/** Phrases that deny value or rewards; blanked out before the rules run. */
export const DISCLAIMERS: readonly Disclaimer[] = [
  {
    disclaimer:
      'a negation of promise nouns: "no value", "has no monetary value", "not an investment", "no rewards, airdrops or returns", "does not pay interest"',
    pattern: new RegExp(String.raw`\b${NEGATION}(?:${SEP}(?:${FILLER.join('|')})){0,5}${SEP}${NOUN_LIST}`, 'i'),
  },
  {
    disclaimer: 'a denied guarantee: "no guarantee", "not guaranteed", "nothing is guaranteed"',
    pattern: /\b(?:no|not|never|without|nothing\s+is)\s+(?:a\s+|any\s+)?guarantee[sd]?\b/i,
  },
  {
    disclaimer: 'worth or earning nothing: "worth nothing", "earns nothing", "worth $0"',
    pattern: /\b(?:worth|earns?|earning|yields?|pays?)\s+(?:nothing|zero|\$?\s?0(?![.,]?\d))/i,
  },
  { disclaimer: 'a non-profit', pattern: /\bnon-?profit\b/i },
];

// A percentage or money amount as a promise writes it: "5%", "12.5 %", "$100".
const PCT = String.raw`\d+(?:[.,]\d+)?\s?%`;

/** The table of refusals. Order only breaks ties between matches at the same place and length. */
export const REFUSAL_RULES: readonly RefusalRule[] = [
  { rule: 'promises rewards', pattern: /\brewards?\b|\brewarded\b|\brewarding\b/i },
  { rule: 'promises airdrops', pattern: /\bair-?\s?drop(?:s|ped|ping)?\b/i },
  {
    rule: 'promises returns',
    pattern: new RegExp(
      [
        String.raw`\b(?:guaranteed|high|higher|huge|big|massive|great|good|strong|solid|steady|stable|regular|fixed|monthly|weekly|daily|annual|yearly|consistent|attractive|excellent|superior|above[- ]market|double[- ]digit|triple[- ]digit|risk[- ]free|expected|projected|targeted|target|positive|investment|financial|real|passive|quick|fast|easy|insane)\s+returns?\b`,
        String.raw`\b(?:returns?|dividends?|payouts?|gains?)\s+(?:of|up\s+to|above|over|around|as\s+high\s+as|exceeding)\s+\$?\d+(?:[.,]\d+)?(?:\s?%)?`,
        String.raw`${PCT}\s+(?:\w+\s+)?(?:returns?|gains?|dividends?|payouts?)\b`,
        String.raw`\b(?:huge|big|massive|guaranteed|quick|fast|easy|insane)\s+gains\b`,
        String.raw`${PCT}\s*(?:(?:a|an|per|each|every)\s+)?(?:year|annum|month|week|day)\b`,
        String.raw`${PCT}\s*(?:annually|monthly|weekly|daily|p\.\s?a\.)`,
      ].join('|'),
      'i',
    ),
  },
  // "yielding" alone is left alone: "Yielding Oak" is a name, not a rate
  {
    rule: 'promises yield',
    pattern: new RegExp(
      String.raw`\byields?\b|\bhigh-?\s?yielding\b|\byielding\s+(?:up\s+to\s+)?${PCT}|(?:${PCT}\s*)?\bapy\b(?:\s+of\s+${PCT})?`,
      'i',
    ),
  },
  { rule: 'promises yield', pattern: new RegExp(String.raw`(?:${PCT}\s*)?\b(?:APR|apr)\b(?:\s+of\s+${PCT})?`) },
  {
    rule: 'promises interest',
    pattern: new RegExp(
      String.raw`\b(?:pays?|paying|earns?|earning|high|fixed|guaranteed|compound(?:ing)?)\s+interest\b|${PCT}\s+interest\b|\binterest\s+(?:rates?|of\s+\d|payments?)\b`,
      'i',
    ),
  },
  {
    rule: 'promises profit',
    pattern:
      /\bprofit(?:s|able|ability|ing)?\b|\b(?:double|triple|multiply)\s+your\s+(?:money|investment|tokens|holdings)\b|\bget\s+rich\b|\bmake\s+money\b/i,
  },
  { rule: 'promises passive income', pattern: /\bpassive\s+income\b/i },
  {
    // "income" alone is neutral (the chain has INCOME kinds); these forms promise it
    rule: 'promises income',
    pattern: new RegExp(
      String.raw`\b(?:guaranteed|steady|stable|regular|monthly|weekly|daily|annual|yearly|high|extra|reliable|consistent|recurring|residual|lifetime)\s+income\b|\bincome\s+of\s+\$?\d[\d,.]*|${PCT}\s+income\b`,
      'i',
    ),
  },
  {
    rule: 'promises earnings',
    pattern: new RegExp(
      String.raw`\bearn(?:s|ed|ing)?\b(?:\s+(?:up\s+to\s+)?(?:${PCT}|\$\s?\d[\d,.]*|\d[\d,.]*|rewards?|interest|money|crypto|tokens?|passive\s+income|income|yield|profits?|returns?))?`,
      'i',
    ),
  },
  {
    rule: 'promises value',
    pattern: new RegExp(
      [
        String.raw`\b(?:will\s+)?(?:increases?|increasing|grows?|growing|rises?|rising|gains?|gaining|go(?:es)?\s+up|going\s+up|appreciates?|appreciating|climbs?|soars?|skyrockets?|explodes?)\s+in\s+value\b`,
        String.raw`\b(?:gains?|gaining|grows?|holds?|keeps?|retains?|has|have|with|real|intrinsic|guaranteed|high|huge|great|lasting|future)\s+(?:its\s+|their\s+)?value\b`,
        String.raw`\bstore\s+of\s+value\b`,
        String.raw`\b(?:value|price)s?\s+(?:will|is\s+going\s+to|are\s+going\s+to|can\s+only|could|should|must|is\s+set\s+to|to)\s+(?:\w+\s+)?(?:rise|go\s+up|increase|grow|climb|soar|pump|moon|skyrocket|double|triple|explode)\b`,
        String.raw`\b(?:value|price)s?\s+(?:rises?|rising|goes\s+up|going\s+up|increases?|increasing|grows?|growing|climbs?|soars?|pumps?)\b`,
        String.raw`\bworth\s+(?:a\s+lot|a\s+fortune|lots|millions|billions|thousands|something|more|much|big|money|real\s+money|\$\s?\d|\d)`,
        String.raw`\bvaluable\s+(?:tokens?|coins?|assets?|investments?|holdings?)\b`,
        String.raw`\bto\s+the\s+moon\b|\bmoon(?:ing|shot)\b|\blambo\b`,
        // 10x, 100x, 2.5x (not 64x64, not 0x-prefixed hex) and x10, x100
        String.raw`\b\d+(?:\.\d+)?\s?x\b(?!\s*\d)|\bx(?:10|100|1000)\b`,
        String.raw`\b(?:great|good|best|smart|safe|solid|sound|sure|wise)\s+investment\b|\binvestment\s+opportunit(?:y|ies)\b`,
      ].join('|'),
      'i',
    ),
  },
  { rule: 'promises a return on investment', pattern: /\breturn\s+on\s+(?:your\s+)?investment\b/i },
  { rule: 'promises a return on investment', pattern: /\b(?:ROI|roi)\b/ },
  {
    rule: 'promises a guarantee',
    pattern:
      /\bguarantee(?:s|d|ing)?\b|\brisk[- ]?free\b|\b(?:no|zero)[- ]risk\b|\bcan(?:not|'t)\s+lose\b|\bsafe\s+bet\b/i,
  },
  {
    rule: 'promises free tokens',
    pattern:
      /\bfree\s+(?:tokens?|coins?|money|crypto|cash|nfts?|shares?|units?|mints?)\b|\bgive-?\s?aways?\b|\bgiving\s+away\b/i,
  },
];

/** The text the tables are matched against (see the file comment, step 1). */
function comparable(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/[\u00ad\u200b-\u200d\u2060\ufeff]/g, '')
    .replace(/[\u2018\u2019\u02bc]/g, "'")
    .replace(/[\u2010-\u2015\u2212]/g, '-');
}

/**
 * Each disclaimer replaced by as many NULs: the length is kept (so a match maps back to
 * the original words) and, NUL being neither a word character nor white space, word
 * boundaries stay and no rule's `\s+` can reach across a blanked phrase.
 */
function blankDisclaimers(text: string): string {
  let out = text;
  for (const { pattern } of DISCLAIMERS) {
    const all = new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`);
    out = out.replace(all, (m) => '\0'.repeat(m.length));
  }
  return out;
}

/** The refusal for `text` (leftmost, then longest, then first in the table), or null when it passes. */
export function refusalOf(text: string): Refusal | null {
  const subject = comparable(text);
  const searched = blankDisclaimers(subject);
  let best: { index: number; length: number; rule: string } | null = null;
  for (const { rule, pattern } of REFUSAL_RULES) {
    const m = pattern.exec(searched);
    if (!m) continue;
    const better = !best || m.index < best.index || (m.index === best.index && m[0].length > best.length);
    if (better) best = { index: m.index, length: m[0].length, rule };
  }
  // the phrase comes from the text before blanking: the same positions, so the same words
  return best && { rule: best.rule, phrase: subject.slice(best.index, best.index + best.length).trim() };
}

/** The 400 message for a refused field, e.g. `description promises returns ("guaranteed returns"): ...`. */
export function refusalMessage(field: string, refusal: Refusal): string {
  return (
    `${field} ${refusal.rule} (${JSON.stringify(refusal.phrase)}): the launchpad refuses names or copy that promise ` +
    'rewards, airdrops, returns, yield, profit or value (testnet tokens have no value)'
  );
}
