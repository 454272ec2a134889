/**
 * The HTTP, GraphQL, subscription and stream examples of README.md and docs/*.md, read from the
 * markdown so a test can run them (tests/integration/doc-examples.test.ts) and check that none
 * is left unmarked (tests/unit/doc-examples.test.ts).
 *
 * A fenced block is an example when it is ```graphql, or holds a `curl` command, a
 * graphql-ws `createClient(`, an `EventSource(` or a `fetch(` of a URL, or is a shell block
 * naming an http(s)/ws(s) URL (isExampleBlock). Every example carries an HTML comment on the
 * line before its fence (indented as the fence):
 *
 *   <!-- example: NAME [status=NNN] [may-be-empty] -->   run against npm start's default world
 *   <!-- not-run: REASON -->                             not run, and why (needs a key, a second deployment…)
 *
 * NAME is unique across the docs ([a-z0-9-]+). `status=NNN` is the status the example answers
 * (default: any 2xx); `may-be-empty` allows an answer without data. A block may hold several
 * operations: one curl command per line (a trailing `\` continues it, `#` comments and a
 * `| jq …` tail are ignored), several GraphQL operations one after the other, or in a js/ts
 * block the `query: '…'` strings a graphql-ws client subscribes to.
 */
import fs from 'fs';
import path from 'path';

const ROOT = path.resolve(__dirname, '..', '..');

/** The markdown the examples live in: README.md and every docs/*.md. */
export function docFiles(root: string = ROOT): string[] {
  const docs = path.join(root, 'docs');
  return [
    path.join(root, 'README.md'),
    ...fs
      .readdirSync(docs)
      .filter((f) => f.endsWith('.md'))
      .sort()
      .map((f) => path.join(docs, f)),
  ];
}

export interface FencedBlock {
  /** repository-relative file */
  file: string;
  /** 1-based line of the opening fence */
  line: number;
  /** the fence's info string (`sh`, `graphql`, ``) */
  lang: string;
  /** the block's text, the fence's indentation removed */
  text: string;
  /** the HTML comment on the line before the fence, if any (its inside, trimmed) */
  marker?: string;
}

export interface CurlRequest {
  kind: 'http';
  method: string;
  /** path and query, the origin dropped (`/v1/status`) */
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** `-N`/`--no-buffer`, or a /v1/stream URL: read as Server-Sent Events */
  stream: boolean;
  /** the command as written */
  source: string;
}

export interface GraphqlOperation {
  kind: 'graphql';
  /** the operation's text */
  query: string;
  subscription: boolean;
  source: string;
}

export type ExampleOperation = CurlRequest | GraphqlOperation;

export interface RunnableExample {
  name: string;
  /** `file:line` of the fence */
  where: string;
  /** the status the doc says the example answers (undefined: any 2xx) */
  status?: number;
  mayBeEmpty: boolean;
  operations: ExampleOperation[];
}

export interface NotRunExample {
  where: string;
  reason: string;
}

export interface DocExamples {
  runnable: RunnableExample[];
  notRun: NotRunExample[];
  /** what is wrong with the markdown's examples: unmarked blocks, bad markers, unparsable commands */
  problems: string[];
}

const FENCE = /^(\s*)(`{3,}|~{3,})\s*([^`\s]*)[^`]*$/;
const MARKER = /^\s*<!--\s*(.*?)\s*-->\s*$/;

/** Every fenced block of a markdown text, with the HTML comment just before it. */
export function fencedBlocks(markdown: string, file: string): FencedBlock[] {
  const lines = markdown.split('\n');
  const blocks: FencedBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]);
    if (!open) continue;
    const [, indent, fence, lang] = open;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const close = new RegExp(`^\\s*${fence[0]}{${fence.length},}\\s*$`).exec(lines[j]);
      if (close) break;
      body.push(lines[j].startsWith(indent) ? lines[j].slice(indent.length) : lines[j].trimStart());
    }
    const before = i > 0 ? MARKER.exec(lines[i - 1]) : null;
    blocks.push({ file, line: i + 1, lang: lang.toLowerCase(), text: body.join('\n'), marker: before?.[1] });
    i = j;
  }
  return blocks;
}

const SHELL_LANGS = new Set(['sh', 'bash', 'shell', 'console', 'zsh']);

/**
 * Whether a block is an HTTP, GraphQL, subscription or stream example (and so needs a marker):
 * GraphQL, a curl command, a graphql-ws client, an EventSource or a fetch of a URL, or a shell
 * block whose commands name an http(s) or ws(s) URL (a command that talks to a server: run, or say why not).
 * Blocks without a language are output (the ready banner, a stream's frames) and need none.
 */
export function isExampleBlock(b: FencedBlock): boolean {
  if (b.lang === 'graphql' || b.lang === 'gql') return true;
  if (/(^|[\s;|&(])curl\s/m.test(b.text)) return true;
  if (/\bcreateClient\(|\bEventSource\(|\bfetch\(\s*['"`]https?:/.test(b.text)) return true;
  const commands = b.text.replace(/(^|\s)#.*$/gm, ''); // a URL in a comment is not a request
  return SHELL_LANGS.has(b.lang) && /\b(https?|wss?):\/\//.test(commands);
}

/** Shell words of one command line (single and double quotes, backslash escapes); stops at an unquoted `|`, `;`, `&&` or `#`. */
export function shellWords(command: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let i = 0;
  const push = () => {
    if (inWord) words.push(word);
    word = '';
    inWord = false;
  };
  while (i < command.length) {
    const c = command[i];
    if (c === "'") {
      const end = command.indexOf("'", i + 1);
      if (end < 0) throw new Error(`unclosed ' in: ${command}`);
      word += command.slice(i + 1, end);
      inWord = true;
      i = end + 1;
    } else if (c === '"') {
      i++;
      while (i < command.length && command[i] !== '"') {
        if (command[i] === '\\' && i + 1 < command.length && '"\\$`'.includes(command[i + 1])) i++;
        else if (command[i] === '$') throw new Error(`a shell variable in: ${command}`);
        word += command[i++];
      }
      if (i >= command.length) throw new Error(`unclosed " in: ${command}`);
      inWord = true;
      i++;
    } else if (c === '\\' && i + 1 < command.length) {
      word += command[i + 1];
      inWord = true;
      i += 2;
    } else if (/\s/.test(c)) {
      push();
      i++;
    } else if (c === '|' || c === ';' || (c === '&' && command[i + 1] === '&') || (c === '#' && !inWord)) {
      break;
    } else if (c === '$') {
      throw new Error(`a shell variable in: ${command}`);
    } else {
      word += c;
      inWord = true;
      i++;
    }
  }
  push();
  return words;
}

/** The shell commands of a block: `\`-continued lines joined, comment lines and `$ ` prompts dropped. */
function commandsOf(text: string): string[] {
  const out: string[] = [];
  let current = '';
  for (const raw of text.split('\n')) {
    const line = raw.replace(/^\s*\$\s+/, '');
    if (current === '' && (line.trim() === '' || line.trim().startsWith('#'))) continue;
    if (/\\\s*$/.test(line)) {
      current += line.replace(/\\\s*$/, ' ');
      continue;
    }
    out.push((current + line).trim());
    current = '';
  }
  if (current.trim()) out.push(current.trim());
  return out;
}

const CURL_FLAGS_WITHOUT_VALUE = new Set([
  '-s',
  '--silent',
  '-S',
  '--show-error',
  '-f',
  '--fail',
  '-i',
  '--include',
  '-L',
  '--location',
  '-v',
  '--verbose',
  '-N',
  '--no-buffer',
  '-sS',
  '-fsS',
  '-sN',
  '-Ns',
  '--compressed',
]);

/** One curl command as a request on the test's server (the doc's origin dropped). */
export function parseCurl(command: string): CurlRequest {
  const words = shellWords(command);
  if (words[0] !== 'curl') throw new Error(`not a curl command: ${command}`);
  let method: string | undefined;
  let url: string | undefined;
  let body: string | undefined;
  let stream = false;
  const headers: Record<string, string> = {};
  for (let i = 1; i < words.length; i++) {
    const w = words[i];
    const value = () => {
      if (i + 1 >= words.length) throw new Error(`${w} without a value in: ${command}`);
      return words[++i];
    };
    if (w === '-X' || w === '--request') method = value().toUpperCase();
    else if (w === '-H' || w === '--header') {
      const h = value();
      const colon = h.indexOf(':');
      if (colon < 1) throw new Error(`bad header ${h} in: ${command}`);
      headers[h.slice(0, colon).trim().toLowerCase()] = h.slice(colon + 1).trim();
    } else if (w === '-d' || w === '--data' || w === '--data-raw' || w === '--data-binary') body = value();
    else if (w === '--json') {
      body = value();
      headers['content-type'] ??= 'application/json';
      headers.accept ??= 'application/json';
    } else if (CURL_FLAGS_WITHOUT_VALUE.has(w)) {
      if (w.includes('N') || w === '--no-buffer') stream = true;
    } else if (w.startsWith('-')) throw new Error(`curl option ${w} is not understood by the extractor in: ${command}`);
    else if (url === undefined) url = w;
    else throw new Error(`a second URL ${w} in: ${command}`);
  }
  if (!url) throw new Error(`no URL in: ${command}`);
  const parsed = new URL(/^[a-z]+:\/\//i.test(url) ? url : `http://${url}`);
  const p = parsed.pathname + parsed.search;
  if (p.startsWith('/v1/stream')) stream = true;
  return {
    kind: 'http',
    method: method ?? (body !== undefined ? 'POST' : 'GET'),
    path: p,
    headers,
    body,
    stream,
    source: command,
  };
}

/** The top-level operations of a GraphQL text, each a separate document (`{ a } { b }` → two). */
export function splitGraphql(text: string): string[] {
  const ops: string[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '#') {
      const nl = text.indexOf('\n', i);
      i = nl < 0 ? text.length : nl;
      continue;
    }
    if (c === '"') inString = true;
    if (start < 0 && !/\s/.test(c)) start = i;
    if (c === '{') depth++;
    if (c === '}') {
      depth--;
      if (depth < 0) throw new Error(`unbalanced } in GraphQL: ${text}`);
      if (depth === 0) {
        ops.push(text.slice(start, i + 1).trim());
        start = -1;
      }
    }
  }
  if (depth !== 0 || start >= 0) throw new Error(`unbalanced GraphQL: ${text}`);
  return ops;
}

function graphqlOperation(query: string): GraphqlOperation {
  return { kind: 'graphql', query, subscription: /^subscription\b/.test(query), source: query };
}

/** The operations of a marked block. */
export function operationsOf(b: FencedBlock): ExampleOperation[] {
  if (b.lang === 'graphql' || b.lang === 'gql') return splitGraphql(b.text).map(graphqlOperation);
  if (/\bcreateClient\(/.test(b.text)) {
    const url = /url:\s*'([^']+)'/.exec(b.text)?.[1];
    if (!url || new URL(url).pathname !== '/graphql') throw new Error(`a graphql-ws client not on /graphql: ${url}`);
    const queries = [...b.text.matchAll(/query:\s*'([^']+)'/g)].map((m) => m[1]);
    if (queries.length === 0) throw new Error('a graphql-ws client without a query');
    return queries.map(graphqlOperation);
  }
  const curls = commandsOf(b.text).filter((c) => /^curl\s/.test(c));
  if (curls.length === 0) throw new Error('a marked block with no curl command, GraphQL or graphql-ws client');
  return curls.map(parseCurl);
}

const NAME = /^[a-z0-9][a-z0-9-]*$/;

/** Reads every example of the docs; `problems` lists what the unit test refuses. */
export function readDocExamples(files: string[] = docFiles()): DocExamples {
  const runnable: RunnableExample[] = [];
  const notRun: NotRunExample[] = [];
  const problems: string[] = [];
  for (const file of files) {
    const rel = path.relative(ROOT, file);
    for (const b of fencedBlocks(fs.readFileSync(file, 'utf8'), rel)) {
      const where = `${rel}:${b.line}`;
      const marker = b.marker;
      const isMarker = marker !== undefined && /^(example|not-run)\b/.test(marker);
      if (!isMarker) {
        if (isExampleBlock(b))
          problems.push(`${where}: an example without <!-- example: NAME --> or <!-- not-run: REASON --> before it`);
        continue;
      }
      const notRunMatch = /^not-run\s*:\s*(.*)$/.exec(marker);
      if (notRunMatch) {
        if (notRunMatch[1].trim().length < 5) problems.push(`${where}: not-run without a reason`);
        else notRun.push({ where, reason: notRunMatch[1].trim() });
        continue;
      }
      const m = /^example\s*:\s*(\S+)((?:\s+\S+)*)$/.exec(marker);
      if (!m || !NAME.test(m[1])) {
        problems.push(`${where}: bad marker "${marker}" (example: NAME [status=NNN] [may-be-empty])`);
        continue;
      }
      let status: number | undefined;
      let mayBeEmpty = false;
      for (const option of m[2].trim().split(/\s+/).filter(Boolean)) {
        const s = /^status=(\d{3})$/.exec(option);
        if (s) status = Number(s[1]);
        else if (option === 'may-be-empty') mayBeEmpty = true;
        else problems.push(`${where}: unknown marker option ${option}`);
      }
      try {
        runnable.push({ name: m[1], where, status, mayBeEmpty, operations: operationsOf(b) });
      } catch (e) {
        problems.push(`${where}: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
  }
  const seen = new Map<string, string>();
  for (const e of runnable) {
    const first = seen.get(e.name);
    if (first) problems.push(`${e.where}: example name ${e.name} already used at ${first}`);
    else seen.set(e.name, e.where);
  }
  return { runnable, notRun, problems };
}
