/**
 * One identity per name and per symbol (docs/app-services.md, "Trade desk"): a launch
 * document, its symbol and its name belong to the first asset launched with them; a later
 * asset whose document is the same, or whose symbol or name reads the same to a person, is
 * a look-alike of the first and never quoted.
 *
 * "Reads the same" is a skeleton key, in the spirit of Unicode's confusables skeleton
 * (UTS #39) for the letters a ticker or a company name is written in: NFKC (full-width and
 * ligature forms become plain), case and accents dropped, invisible and separating
 * characters removed, Greek and Cyrillic letters that look Latin made Latin, and the shapes
 * people confuse at a glance made one (0/o, 1/l/i/|, 5/s, vv/w, rn/m, cl/d).
 */

/** Greek and Cyrillic letters drawn like Latin ones (lower case, after NFKC and case folding). */
const HOMOGLYPHS: Record<string, string> = {
  а: 'a',
  в: 'b',
  е: 'e',
  ё: 'e',
  к: 'k',
  м: 'm',
  н: 'h',
  о: 'o',
  р: 'p',
  с: 'c',
  т: 't',
  у: 'y',
  х: 'x',
  ѕ: 's',
  і: 'i',
  ї: 'i',
  ј: 'j',
  ԁ: 'd',
  ԛ: 'q',
  ԝ: 'w',
  һ: 'h',
  ɡ: 'g',
  α: 'a',
  β: 'b',
  ε: 'e',
  η: 'n',
  ι: 'i',
  κ: 'k',
  ν: 'v',
  ο: 'o',
  ρ: 'p',
  τ: 't',
  υ: 'u',
  χ: 'x',
  ω: 'w',
};

/** Shapes read as one another, longest first (applied after the letters are Latin). */
const SHAPES: [RegExp, string][] = [
  [/vv/g, 'w'],
  [/rn/g, 'm'],
  [/cl/g, 'd'],
  [/[0]/g, 'o'],
  [/[1|!il]/g, 'l'],
  [/[5]/g, 's'],
  [/[8]/g, 'b'],
];

/** The skeleton of a name or symbol: two that read the same to a person have the same one. */
export function skeleton(text: string): string {
  let s = text.normalize('NFKC').toLowerCase().normalize('NFD').replace(/\p{M}/gu, '');
  s = [...s].map((ch) => HOMOGLYPHS[ch] ?? ch).join('');
  s = s.replace(/[^\p{L}\p{N}|!]/gu, '');
  for (const [from, to] of SHAPES) s = s.replace(from, to);
  return s;
}

export interface Launched {
  id: string;
  meta_hash: string;
  name: string;
  symbol: string;
  created_height: number;
  tx_index: number;
}

/**
 * For each asset, the earlier asset it is a look-alike of (same document, or a symbol or a
 * name with the same skeleton), or null. Earlier: by height, then the creating tx's place in
 * its block, then id.
 */
export function lookAlikes(assets: readonly Launched[]): Map<string, string | null> {
  const ordered = [...assets].sort(
    (a, b) =>
      a.created_height - b.created_height || a.tx_index - b.tx_index || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
  const firstBy = new Map<string, string>();
  const out = new Map<string, string | null>();
  for (const a of ordered) {
    const keys = [`doc:${a.meta_hash}`, `symbol:${skeleton(a.symbol)}`, `name:${skeleton(a.name)}`].filter(
      (k) => !k.endsWith(':'),
    );
    const first = keys.map((k) => firstBy.get(k)).find((id) => id !== undefined);
    out.set(a.id, first ?? null);
    for (const k of keys) if (!firstBy.has(k)) firstBy.set(k, a.id);
  }
  return out;
}
