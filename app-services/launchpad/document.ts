/**
 * The launchpad's metadata document: what POST /api/launchpad/metadata accepts, the
 * canonical form it stores, and the hash of that form, which is the asset's meta_hash.
 *
 * THE CANONICAL FORM IS A CONTRACT: anyone can recompute meta_hash from the document.
 *
 *   meta_hash = lower-case hex of SHA-256 over the UTF-8 bytes of
 *     {"description":D,"logo":L,"name":N,"symbol":S,"template":T}
 *
 *  - keys sorted by UTF-16 code unit (description, logo, name, symbol, template), no
 *    white space anywhere outside strings; the "logo" key is present only when there is
 *    a logo (never as null or "");
 *  - each string value written as ECMAScript's JSON.stringify writes it: `"` as \",
 *    `\` as \\, a line break as \n, every other character (non-ASCII included, also
 *    U+2028/U+2029 and "/") as itself in UTF-8; this is RFC 8785 (JCS) for this document;
 *  - N, S, D are the stored values: in D every "\r\n" first becomes "\n"; then the text
 *    is NFC-normalised, then trimmed of leading and trailing white space as
 *    String.prototype.trim does (U+0009-U+000D, U+0020, U+00A0, U+1680, U+2000-U+200A,
 *    U+2028, U+2029, U+202F, U+205F, U+3000, U+FEFF); inside the text nothing is
 *    collapsed or changed;
 *  - T is one of TEMPLATES, exactly as sent (not trimmed, not case-folded);
 *  - L is the PNG's bytes in standard base64 (RFC 4648 section 4: "+" and "/", "="
 *    padding, no line breaks), whatever base64 spelling was sent;
 *  - the UTF-8 has no byte order mark.
 *
 * Example: {"description":"d","name":"N","symbol":"S","template":"community"} hashes to
 * 5197c2f957f6376c1c6867b172a9e523b7631970b133f6ff269d94a9889e145b.
 *
 * Accepted input (parseMetadataDocument): a JSON object with exactly the keys name,
 * symbol, description, template and optionally logo (null = no logo); the limits are
 * DOCUMENT_LIMITS; characters are counted as Unicode code points after NFC and trimming.
 * Refused: any other key; a missing or mistyped field; lone surrogates; control
 * characters (Unicode Cc: U+0000-U+001F, U+007F-U+009F) except "\n" inside the
 * description; bidirectional embedding/override/isolate controls (U+202A-U+202E,
 * U+2066-U+2069), which make a name display differently from what it is; a lower-case
 * symbol (it is not upper-cased for you: the stored form must be what was sent);
 * names, symbols or descriptions that promise rewards or value (refusal.ts).
 */
import { canonicalStringify, metadataHash } from '../../src/lib/canonical-json';
import { utf8Encode } from '../../src/lib/bytes';
import { checkPng, PNG_MAX_DIMENSION } from './png';
import { refusalMessage, refusalOf } from './refusal';

export const TEMPLATES = ['community', 'dividend', 'equity', 'bond'] as const;
export type Template = (typeof TEMPLATES)[number];

/** The limits of a document. Characters are Unicode code points after NFC and trimming. */
export const DOCUMENT_LIMITS = {
  /** 1..64 characters */
  name: { min: 1, max: 64 },
  /** 1..12 characters of A-Z and 0-9 */
  symbol: { min: 1, max: 12 },
  /** 1..2000 characters, line breaks (\n) allowed */
  description: { min: 1, max: 2000 },
  /** at most 256 KiB of PNG bytes (after base64 decoding), width and height 1..4096 pixels */
  logo: { maxBytes: 256 * 1024, maxDimension: PNG_MAX_DIMENSION },
} as const;

export const SYMBOL_PATTERN = /^[A-Z0-9]+$/;

export interface MetadataDocument {
  name: string;
  symbol: string;
  description: string;
  template: Template;
  /** the PNG bytes in canonical standard base64 with padding */
  logo?: string;
}

export type ParseResult = { ok: true; doc: MetadataDocument } | { ok: false; error: string; field: string };

/** A refusal names the field it is about; `document` when it is about the whole input. */
type Failure = { ok: false; error: string; field: string };
type Checked<T> = { ok: true; value: T } | Failure;

const KEYS = ['name', 'symbol', 'description', 'template', 'logo'] as const;
type TextField = 'name' | 'symbol' | 'description';

const fail = (field: string, error: string): Failure => ({ ok: false, error, field });
const ok = <T>(value: T): Checked<T> => ({ ok: true, value });

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
// Cc (C0, DEL, C1) and the bidi controls that reorder how the text is displayed
const FORBIDDEN_CHAR = /[\p{Cc}\u202a-\u202e\u2066-\u2069]/u;
const FORBIDDEN_CHAR_BUT_NEWLINE = /(?!\n)[\p{Cc}\u202a-\u202e\u2066-\u2069]/u;

function isPlainObject(x: unknown): x is Record<string, unknown> {
  if (typeof x !== 'object' || x === null || Array.isArray(x)) return false;
  const proto = Object.getPrototypeOf(x);
  return proto === Object.prototype || proto === null;
}

/** "a number", "null", "an array": for "name must be a string, not ..." */
function describe(x: unknown): string {
  if (x === null) return 'null';
  if (x === undefined) return 'nothing';
  if (Array.isArray(x)) return 'an array';
  const t = typeof x;
  return t === 'object' ? 'an object' : `a ${t}`;
}

/** An own property only: a key inherited from a prototype was not sent. */
function own(input: Record<string, unknown>, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(input, key) ? input[key] : undefined;
}

const codePoints = (s: string): number => [...s].length;
const hexCodePoint = (ch: string): string =>
  `U+${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;

/** A required string field: type, Unicode validity, NFC, trimming, characters, length. */
function textField(input: Record<string, unknown>, field: TextField): Checked<string> {
  const { max } = DOCUMENT_LIMITS[field];
  const raw = own(input, field);
  if (raw === undefined) return fail(field, `${field} is required: a string of 1 to ${max} characters`);
  if (typeof raw !== 'string') return fail(field, `${field} must be a string, not ${describe(raw)}`);
  if (LONE_SURROGATE.test(raw)) return fail(field, `${field} is not valid Unicode (it holds a lone surrogate)`);
  const multiline = field === 'description';
  // a form's textarea sends CRLF line breaks; storing them would make two hashes for one text
  const text = (multiline ? raw.replace(/\r\n/g, '\n') : raw).normalize('NFC').trim();
  if (text === '') return fail(field, `${field} is empty`);
  const bad = text.match(multiline ? FORBIDDEN_CHAR_BUT_NEWLINE : FORBIDDEN_CHAR);
  if (bad) {
    const allowed = multiline ? ' (only line breaks are allowed)' : '';
    return fail(field, `${field} holds the control character ${hexCodePoint(bad[0])}${allowed}`);
  }
  const length = codePoints(text);
  if (length > max)
    return fail(
      field,
      `${field} is ${length} characters long; the limit is ${max} (Unicode code points after NFC and trimming)`,
    );
  return ok(text);
}

function symbolField(input: Record<string, unknown>): Checked<string> {
  const text = textField(input, 'symbol');
  if (!text.ok || SYMBOL_PATTERN.test(text.value)) return text;
  const symbol = text.value;
  // upper-casing for the sender would store something other than what was sent
  if (/^[A-Za-z0-9]+$/.test(symbol))
    return fail(
      'symbol',
      `symbol must be upper case: send ${JSON.stringify(symbol.toUpperCase())}, not ${JSON.stringify(symbol)}`,
    );
  return fail('symbol', `symbol may hold only A-Z and 0-9, not ${JSON.stringify(symbol)}`);
}

function templateField(input: Record<string, unknown>): Checked<Template> {
  const raw = own(input, 'template');
  const choice = `one of ${TEMPLATES.join(', ')}`;
  if (raw === undefined) return fail('template', `template is required: ${choice}`);
  if (typeof raw !== 'string') return fail('template', `template must be a string, not ${describe(raw)}`);
  const template = TEMPLATES.find((t) => t === raw);
  return template ? ok(template) : fail('template', `template must be ${choice}, not ${JSON.stringify(raw)}`);
}

const STANDARD_B64 = /^[A-Za-z0-9+/]*$/;
const URL_SAFE_B64 = /^[A-Za-z0-9_-]*$/;

/**
 * Decodes base64 in either alphabet (not mixed), padded correctly or not padded.
 * Line breaks and spaces are removed first (`base64` tools wrap lines). null if invalid.
 */
function decodeBase64(text: string): Uint8Array | null {
  const compact = text.replace(/[ \t\r\n]/g, '');
  const body = compact.replace(/={1,2}$/, '');
  if (!STANDARD_B64.test(body) && !URL_SAFE_B64.test(body)) return null;
  if (body.length % 4 === 1) return null;
  if (body.length !== compact.length && compact.length % 4 !== 0) return null; // wrong padding
  // Buffer decodes both alphabets; the checks above make it strict
  return new Uint8Array(Buffer.from(body, 'base64'));
}

/** The byte length base64 text decodes to, without decoding it (to refuse a huge logo cheaply). */
function decodedLength(text: string): number {
  const body = text.replace(/[ \t\r\n]/g, '').replace(/={1,2}$/, '');
  return Math.floor((body.length * 3) / 4);
}

function logoField(input: Record<string, unknown>): Checked<string | undefined> {
  const raw = own(input, 'logo');
  // null is how many JSON clients write "no logo"
  if (raw === undefined || raw === null) return ok(undefined);
  if (typeof raw !== 'string') return fail('logo', `logo must be a string (base64 of a PNG), not ${describe(raw)}`);
  if (raw.trim() === '') return fail('logo', 'logo is empty: leave the key out (or send null) when there is no logo');
  if (/^\s*data:/i.test(raw))
    return fail('logo', 'logo must be the base64 of the PNG bytes alone, without a data: URL prefix');
  const { maxBytes } = DOCUMENT_LIMITS.logo;
  if (decodedLength(raw) > maxBytes) return fail('logo', `logo is over ${maxBytes} bytes (256 KiB) of PNG`);
  const bytes = decodeBase64(raw);
  if (!bytes) return fail('logo', 'logo is not base64 (standard or URL-safe alphabet, padding optional)');
  const png = checkPng(bytes);
  if (!png.ok) return fail('logo', `logo is not an acceptable PNG: ${png.error}`);
  return ok(Buffer.from(bytes).toString('base64'));
}

/** The first text field that promises rewards or value, as a failure. */
function refusedField(doc: MetadataDocument): Failure | null {
  for (const field of ['name', 'symbol', 'description'] as const) {
    const refusal = refusalOf(doc[field]);
    if (refusal) return fail(field, refusalMessage(field, refusal));
  }
  return null;
}

/**
 * Validates and canonicalises a metadata document (see the file comment). The first
 * problem found is reported, in the order: shape, unknown keys, name, symbol,
 * description, template, logo, then the refusal rule on name, symbol, description.
 */
export function parseMetadataDocument(input: unknown): ParseResult {
  if (!isPlainObject(input))
    return fail('document', `the metadata document must be a JSON object, not ${describe(input)}`);
  const unknown = Object.keys(input).find((k) => !(KEYS as readonly string[]).includes(k));
  if (unknown !== undefined)
    return fail(unknown, `unknown key ${JSON.stringify(unknown)}: a metadata document has only ${KEYS.join(', ')}`);
  const name = textField(input, 'name');
  if (!name.ok) return name;
  const symbol = symbolField(input);
  if (!symbol.ok) return symbol;
  const description = textField(input, 'description');
  if (!description.ok) return description;
  const template = templateField(input);
  if (!template.ok) return template;
  const logo = logoField(input);
  if (!logo.ok) return logo;
  const doc: MetadataDocument = {
    name: name.value,
    symbol: symbol.value,
    description: description.value,
    template: template.value,
  };
  if (logo.value !== undefined) doc.logo = logo.value;
  return refusedField(doc) ?? { ok: true, doc };
}

/** The object that is hashed: the document's five fields only, "logo" only when set. */
function canonicalObject(doc: MetadataDocument): Record<string, string> {
  const out: Record<string, string> = {
    name: doc.name,
    symbol: doc.symbol,
    description: doc.description,
    template: doc.template,
  };
  if (doc.logo !== undefined && doc.logo !== '') out.logo = doc.logo;
  return out;
}

/** The canonical JSON text of a parsed document (see the file comment). */
export function canonicalDocumentString(doc: MetadataDocument): string {
  return canonicalStringify(canonicalObject(doc));
}

/** The UTF-8 bytes whose SHA-256 is the meta_hash. */
export function canonicalDocumentBytes(doc: MetadataDocument): Uint8Array {
  return utf8Encode(canonicalDocumentString(doc));
}

/** meta_hash: 64 lower-case hex characters of SHA-256 over canonicalDocumentBytes(doc). */
export function documentHash(doc: MetadataDocument): string {
  return metadataHash(canonicalObject(doc));
}
