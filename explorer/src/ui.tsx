/** The explorer's small component kit: routing on the URL's hash, API state, amounts, times, the cursor-paged list. */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from './api';

// ---- routing: #/<page>/<arg>?<query>; every state a person may share lives in the hash

export interface Route {
  parts: string[];
  query: URLSearchParams;
}

export function parseHash(hash: string): Route {
  const h = hash.replace(/^#/, '') || '/';
  const [path, qs] = h.split('?', 2);
  return { parts: path.split('/').filter(Boolean).map(decodeURIComponent), query: new URLSearchParams(qs ?? '') };
}

export function useRoute(): Route {
  const [hash, setHash] = useState(location.hash);
  useEffect(() => {
    const on = () => setHash(location.hash);
    addEventListener('hashchange', on);
    return () => removeEventListener('hashchange', on);
  }, []);
  return parseHash(hash);
}

/** `#/tx/ABC?x=1` from parts and a query (empty values dropped). */
export function href(
  parts: (string | number)[],
  query: Record<string, string | number | null | undefined> = {},
): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  const qs = q.toString();
  return `#/${parts.map((p) => encodeURIComponent(String(p))).join('/')}${qs ? `?${qs}` : ''}`;
}

/** The current route with one query value changed (a pager's link keeps the page's other lists where they are). */
export function withQuery(route: Route, changes: Record<string, string | null | undefined>): string {
  const q: Record<string, string> = {};
  route.query.forEach((v, k) => (q[k] = v));
  for (const [k, v] of Object.entries(changes)) {
    if (v === null || v === undefined || v === '') delete q[k];
    else q[k] = v;
  }
  return href(route.parts, q);
}

export function navigate(to: string, replace = false): void {
  if (replace) location.replace(to);
  else location.hash = to.replace(/^#/, '');
}

// ---- API state

export interface Loaded<T> {
  data: T | undefined;
  error: ApiError | Error | undefined;
  /** seconds until the retry a 429 or 503 asked for */
  retryIn: number | undefined;
  reload(): void;
}

/**
 * Runs `load` when `key` changes; an API error is kept as worded. A 429 or 503 with Retry-After
 * is tried again after that many seconds (a countdown is shown), never sooner.
 */
export function useApi<T>(key: string, load: (signal: AbortSignal) => Promise<T>): Loaded<T> {
  const [state, setState] = useState<{ key: string; data?: T; error?: Error; retryIn?: number }>({ key });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    const ac = new AbortController();
    let timer: ReturnType<typeof setInterval> | undefined;
    setState((s) => (s.key === key ? { ...s, retryIn: undefined } : { key }));
    load(ac.signal).then(
      (data) => !ac.signal.aborted && setState({ key, data }),
      (error: Error) => {
        if (ac.signal.aborted) return;
        const wait =
          error instanceof ApiError && (error.status === 429 || error.status === 503) ? error.retryAfter : undefined;
        setState({ key, error, retryIn: wait });
        if (wait !== undefined) {
          let left = wait;
          timer = setInterval(() => {
            left -= 1;
            if (left <= 0) {
              clearInterval(timer);
              setAttempt((a) => a + 1);
            } else setState((s) => ({ ...s, retryIn: left }));
          }, 1000);
        }
      },
    );
    return () => {
      ac.abort();
      if (timer) clearInterval(timer);
    };
  }, [key, attempt]);
  const same = state.key === key;
  return {
    data: same ? state.data : undefined,
    error: same ? state.error : undefined,
    retryIn: same ? state.retryIn : undefined,
    reload: () => setAttempt((a) => a + 1),
  };
}

export function ErrorBox({ error, retryIn }: { error: Error; retryIn?: number }) {
  const api = error instanceof ApiError ? error : undefined;
  return (
    <div class="error" role="alert">
      <strong>{api ? `${api.status} ${api.code}` : 'error'}</strong>: {error.message}
      {api?.reason ? <span> (reason: {api.reason})</span> : null}
      {retryIn !== undefined ? <span class="muted"> — trying again in {retryIn} s (Retry-After)</span> : null}
    </div>
  );
}

/** Renders `children(data)` once loaded; the API's error as worded otherwise. */
export function Show<T>({ state, children }: { state: Loaded<T>; children: (data: T) => ComponentChildren }) {
  if (state.error) return <ErrorBox error={state.error} retryIn={state.retryIn} />;
  if (state.data === undefined) return <p class="muted">loading…</p>;
  return <>{children(state.data)}</>;
}

// ---- values

/** `raw` (a base-10 integer string) with `decimals` places: 1234567, 6 → 1.234567 */
export function decimalString(raw: string, decimals: number): string {
  if (!/^-?\d+$/.test(raw) || decimals <= 0) return raw;
  const neg = raw.startsWith('-');
  const digits = (neg ? raw.slice(1) : raw).padStart(decimals + 1, '0');
  const whole = digits.slice(0, -decimals).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const frac = digits.slice(-decimals).replace(/0+$/, '');
  return `${neg ? '-' : ''}${whole}${frac ? '.' + frac : ''}`;
}

/**
 * The decimals of a kind whose units the API gave both raw and as `whole` (units / 10^decimals,
 * AccountPosition.whole_units): the one count that renders `raw` as `whole`; 6 when none does.
 */
export function decimalsOf(raw: string | undefined, whole: string): number {
  if (raw && /^\d+$/.test(raw))
    for (let d = 0; d <= 36; d++) if (decimalString(raw, d).replace(/,/g, '') === whole) return d;
  return 6;
}

/** A denom's display: `uusdc` → 6 decimals of USDC; any other denom as it is, no decimals. */
export function denomUnit(denom: string): { unit: string; decimals: number } {
  return /^u[a-z]{2,}$/.test(denom)
    ? { unit: denom.slice(1).toUpperCase(), decimals: 6 }
    : { unit: denom, decimals: 0 };
}

/** An amount with its decimals; the raw integer on hover. */
export function Amount({ raw, decimals, unit }: { raw: string | null | undefined; decimals: number; unit?: string }) {
  if (raw === null || raw === undefined) return <span class="muted">—</span>;
  return (
    <span class="amount" title={`${raw} (raw integer${unit ? `, ${decimals} decimals` : ''})`}>
      {decimalString(raw, decimals)}
      {unit ? ` ${unit}` : ''}
    </span>
  );
}

export function Coin({ denom, amount }: { denom?: string; amount?: string }) {
  if (!denom || amount === undefined) return <span class="muted">—</span>;
  const { unit, decimals } = denomUnit(denom);
  return (
    <span class="amount" title={`${amount} ${denom}`}>
      {decimalString(amount, decimals)} {unit}
    </span>
  );
}

/** Units of an asset kind (6 decimals unless told). */
export function Units({ raw, decimals = 6 }: { raw: string | null | undefined; decimals?: number }) {
  return <Amount raw={raw} decimals={decimals} unit="" />;
}

/** An RFC 3339 time in UTC: 2026-12-02 07:03:27 UTC */
export function Time({ t }: { t: string | null | undefined }) {
  if (!t) return <span class="muted">—</span>;
  const d = new Date(t);
  if (Number.isNaN(d.getTime())) return <span>{t}</span>;
  return (
    <time dateTime={t} title={t}>
      {d
        .toISOString()
        .replace('T', ' ')
        .replace(/\.\d+Z$/, ' UTC')}
    </time>
  );
}

export function short(s: string, n = 10): string {
  return s.length > 2 * n + 1 ? `${s.slice(0, n)}…${s.slice(-6)}` : s;
}

export const TxLink = ({ hash }: { hash: string | null | undefined }) =>
  hash ? (
    <a href={href(['tx', hash])} class="mono" title={hash}>
      {short(hash)}
    </a>
  ) : (
    <span class="muted">—</span>
  );
export const BlockLink = ({ height }: { height: number | null | undefined }) =>
  height === null || height === undefined ? (
    <span class="muted">—</span>
  ) : (
    <a href={href(['block', height])}>{height}</a>
  );
export const AccountLink = ({ addr }: { addr: string | null | undefined }) =>
  addr ? (
    <a href={href(['account', addr])} class="mono" title={addr}>
      {short(addr, 12)}
    </a>
  ) : (
    <span class="muted">—</span>
  );
export const AssetLink = ({ id }: { id: string | null | undefined }) =>
  id ? (
    <a href={href(['asset', id])} class="mono" title={id}>
      {short(id)}
    </a>
  ) : (
    <span class="muted">—</span>
  );

/** What every cursor-paged /v1 answer carries: `next_cursor` (null on the last page); /v1/txs also `prev_cursor`. */
export interface CursorPage {
  next_cursor: string | null;
  prev_cursor?: string | null;
}

/** history.state of an entry reached through a pager's link: the page of the same list it was reached from. */
interface PagedState {
  pagedFrom?: string;
}

/**
 * The pager link followed last, until the list's next page shows its pager: the rows it replaces
 * take the focus with them, so a keyboard user would start again at the top of the document.
 */
let focusAfterPaging: { list: string; rel: string } | undefined;

/** A pager's link: a new history entry that remembers the page it came from, so `back` returns there. */
function pageTo(e: MouseEvent, to: string, list: string, rel: string): void {
  if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return; // a new tab: a plain link
  e.preventDefault();
  const from = location.hash;
  focusAfterPaging = { list, rel };
  location.hash = to.replace(/^#/, '');
  // the entry exists as soon as the hash is set; hashchange (and the render) comes after
  history.replaceState({ pagedFrom: from } satisfies PagedState, '');
}

function Pager({ route, param, page, list }: { route: Route; param: string; page: CursorPage; list: string }) {
  const here = route.query.get(param);
  // only an entry a pager made goes back to this list's page before; a shared link has none to go to
  const from = (history.state as PagedState | null)?.pagedFrom;
  const nav = useRef<HTMLElement>(null);
  useEffect(() => {
    const wanted = focusAfterPaging;
    if (wanted?.list !== list || !nav.current) return;
    focusAfterPaging = undefined;
    // the same link on the new page (next, next, … by Enter), else the pager's first control
    const target =
      nav.current.querySelector<HTMLElement>(`a[rel=${wanted.rel}]`) ?? nav.current.querySelector('a, button');
    target?.focus();
  }, [list, page]);
  const link = (cursor: string | null, label: string, rel: string) => {
    const to = withQuery(route, { [param]: cursor });
    return (
      <a href={to} rel={rel} onClick={(e) => pageTo(e, to, list, rel)}>
        {label}
      </a>
    );
  };
  return (
    <nav class="pager" aria-label={`${param} pages`} ref={nav}>
      {here ? link(null, '⇤ first page', 'first') : null}
      {page.prev_cursor ? link(page.prev_cursor, '← newer', 'prev') : null}
      {here && from ? (
        <button type="button" onClick={() => history.back()} title={from}>
          ← back
        </button>
      ) : null}
      {page.next_cursor ? link(page.next_cursor, 'next page →', 'next') : <span class="muted">last page</span>}
    </nav>
  );
}

/**
 * The one cursor-paged list: reads the page at the cursor the URL holds under `param` (so every
 * page of a list is a link a person can share, and the back button walks back over the pages),
 * shows `children(page)` and the pager under it, then `after(page)`. `id` names the list with its
 * filters: a change of it or of the cursor reads the list again. Several lists on one page each
 * have their own `param`, and a pager's link keeps the others' cursors where they are.
 */
export function CursorList<T extends CursorPage>({
  route,
  param = 'cursor',
  id,
  load,
  children,
  after,
}: {
  route: Route;
  param?: string;
  id: string;
  load: (cursor: string | undefined, signal: AbortSignal) => Promise<T>;
  children: (page: T) => ComponentChildren;
  after?: (page: T) => ComponentChildren;
}) {
  const cursor = route.query.get(param) ?? undefined;
  const page = useApi(`${id}@${cursor ?? ''}`, (signal) => load(cursor, signal));
  return (
    <Show state={page}>
      {(p) => (
        <div class="paged" data-list={id} data-cursor={cursor ?? ''}>
          {children(p)}
          <Pager route={route} param={param} page={p} list={id} />
          {after?.(p)}
        </div>
      )}
    </Show>
  );
}

export function Json({ value }: { value: unknown }) {
  return <pre class="json">{JSON.stringify(value, null, 2)}</pre>;
}

export function KV({ rows }: { rows: [string, ComponentChildren][] }) {
  return (
    <table class="kv">
      <tbody>
        {rows.map(([k, v]) => (
          <tr key={k}>
            <th scope="row">{k}</th>
            <td>{v}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
