/** Home, blocks, block, txs, tx and search: the chain pages. */
import { useEffect, useRef, useState } from 'preact/hooks';
import { get, type S } from './api';
import { TxDailyChart } from './chart';
import {
  AccountLink,
  BlockLink,
  Coin,
  CursorList,
  ErrorBox,
  href,
  Json,
  KV,
  navigate,
  Show,
  short,
  Time,
  TxLink,
  useApi,
  type Route,
} from './ui';

const methodName = (m: string | undefined) => (m ? m.replace(/^\/svc\./, '').replace(/^\//, '') : '—');

export function TxRows({ txs }: { txs: S['Tx'][] }) {
  return (
    <table class="list" data-testid="tx-rows">
      <thead>
        <tr>
          <th>tx</th>
          <th>height</th>
          <th>method</th>
          <th>result</th>
          <th>time (UTC)</th>
        </tr>
      </thead>
      <tbody>
        {txs.map((t) => (
          <tr key={t.hash} data-key={t.hash}>
            <td>
              <TxLink hash={t.hash} />
            </td>
            <td>
              <BlockLink height={t.height} />
            </td>
            <td>{methodName(t.msgs[0]?.['@type'])}</td>
            <td>
              {t.code === 0 ? (
                t.evm && t.evm.status === 0 ? (
                  'reverted'
                ) : (
                  'ok'
                )
              ) : (
                <span class="bad">failed ({t.code})</span>
              )}
            </td>
            <td>
              <Time t={t.block_time} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function BlockRows({ blocks }: { blocks: S['Block'][] }) {
  return (
    <table class="list" data-testid="block-rows">
      <thead>
        <tr>
          <th>height</th>
          <th>hash</th>
          <th>txs</th>
          <th>events</th>
          <th>time (UTC)</th>
        </tr>
      </thead>
      <tbody>
        {blocks.map((b) => (
          <tr key={b.height} data-height={b.height} data-key={b.height}>
            <td>
              <BlockLink height={b.height} />
            </td>
            <td class="mono" title={b.hash}>
              {short(b.hash)}
            </td>
            <td>{b.tx_count}</td>
            <td>{b.event_count}</td>
            <td>
              <Time t={b.time} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function SearchBox() {
  const [q, setQ] = useState('');
  return (
    <form
      class="search"
      role="search"
      onSubmit={(e) => {
        e.preventDefault();
        const v = q.trim();
        if (v) navigate(href(['search', v]));
      }}
    >
      <input
        type="search"
        name="q"
        aria-label="search: tx hash, eth hash, address, asset id, height"
        placeholder="tx hash, eth hash, svc1… or 0x… address, asset id, height"
        value={q}
        onInput={(e) => setQ((e.target as HTMLInputElement).value)}
      />
      <button type="submit">Search</button>
    </form>
  );
}

/**
 * The home page: status and lag, the 14-day chart, latest blocks and txs live from one /v1/stream.
 * The stream's block events move the indexed height and the wall-clock lag; /v1/status (chain
 * height, lag, drift) is read when the page opens and again, at most every 3 s on a block event,
 * only while its last answer showed the index more than a block behind the chain: at the head the
 * block events are the chain's progress, and no request is made for it (docs/explorer.md, "Live").
 */
export function Home() {
  const status = useApi('status', (s) => get('/v1/status', {}, {}, s));
  const stats = useApi('stats', (s) => get('/v1/stats', {}, { limit: 10 }, s));
  const first = useApi('blocks', (s) => get('/v1/blocks', {}, { limit: 10 }, s));
  const [live, setLive] = useState<S['Block'][]>([]);
  const [liveTxs, setLiveTxs] = useState<S['Tx'][]>([]);
  const [stream, setStream] = useState('connecting');
  const lastStatus = useRef(Date.now());
  const reloadStatus = useRef(status.reload);
  reloadStatus.current = status.reload;
  // until the first answer, no re-read: the one on its way tells whether the index is behind
  const catchingUp = useRef(false);
  catchingUp.current = (status.data?.lag_blocks ?? 0) > 1;

  useEffect(() => {
    let es: EventSource | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const open = () => {
      es = new EventSource('/v1/stream');
      es.onopen = () => setStream('live');
      es.addEventListener('block', (ev) => {
        const b = JSON.parse((ev as MessageEvent<string>).data) as S['Block'];
        setLive((l) => [b, ...l.filter((x) => x.height !== b.height)].slice(0, 10));
        if (catchingUp.current && Date.now() - lastStatus.current > 3000) {
          lastStatus.current = Date.now();
          reloadStatus.current();
        }
        if (b.tx_count > 0)
          get('/v1/blocks/{height}', { height: b.height }).then(
            (d) => setLiveTxs((l) => [...[...d.txs].reverse(), ...l.filter((t) => t.height !== b.height)].slice(0, 10)),
            () => undefined,
          );
      });
      es.addEventListener('close', (ev) => {
        const c = JSON.parse((ev as MessageEvent<string>).data) as S['StreamClose'];
        setStream(`closed by the server: ${c.error} (${c.code}); reconnecting`);
      });
      es.onerror = () => {
        if (es && es.readyState === EventSource.CLOSED) {
          setStream('stream refused; trying again in 5 s');
          timer = setTimeout(open, 5000);
        } else setStream('reconnecting');
      };
    };
    open();
    return () => {
      es?.close();
      if (timer) clearTimeout(timer);
    };
  }, []);

  const blocks = [...live, ...(first.data?.blocks ?? []).filter((b) => !live.some((l) => l.height === b.height))].slice(
    0,
    10,
  );
  const txs = [
    ...liveTxs,
    ...(stats.data?.latest_txs ?? []).filter((t) => !liveTxs.some((l) => l.hash === t.hash)),
  ].slice(0, 10);
  const indexed = Math.max(status.data?.indexed_height ?? 0, live[0]?.height ?? 0);
  // by this browser's clock, from the latest block the stream sent; before one, the status's figure
  const wallLag = (s: S['Status']) =>
    live[0] ? Math.max(0, Math.round((Date.now() - Date.parse(live[0].time)) / 1000)) : s.wall_clock_lag_seconds;
  return (
    <section>
      <h1>svc chain explorer</h1>
      <SearchBox />
      <Show state={status}>
        {(s) => (
          <div class="cards" data-testid="status">
            <div class="card">
              <div class="muted">indexed height</div>
              <div class="big" data-testid="indexed-height">
                {indexed}
              </div>
            </div>
            <div class="card">
              <div class="muted">chain height</div>
              <div class="big">{Math.max(s.chain_height, indexed)}</div>
            </div>
            <div class="card">
              <div class="muted">lag</div>
              <div class="big">{Math.max(0, s.chain_height - indexed)} blocks</div>
              <div class="muted">{wallLag(s)} s behind the wall clock</div>
            </div>
            <div class="card">
              <div class="muted">drift recorded</div>
              <div class="big">
                <a href={href(['invariants'])}>{s.drift_total}</a>
              </div>
            </div>
          </div>
        )}
      </Show>
      <h2>Transactions per day (UTC, 14 days)</h2>
      <Show state={stats}>
        {(s) => (
          <>
            <TxDailyChart days={s.tx_daily} />
            <p class="muted">{s.tx_count} txs in all</p>
          </>
        )}
      </Show>
      <div class="two">
        <div>
          <h2>
            Latest blocks{' '}
            <span class="badge" data-testid="stream-state">
              {stream}
            </span>
          </h2>
          {first.error ? <ErrorBox error={first.error} retryIn={first.retryIn} /> : <BlockRows blocks={blocks} />}
          <a href={href(['blocks'])}>all blocks →</a>
        </div>
        <div>
          <h2>Latest transactions</h2>
          {stats.error ? <ErrorBox error={stats.error} retryIn={stats.retryIn} /> : <TxRows txs={txs} />}
          <a href={href(['txs'])}>all transactions →</a>
        </div>
      </div>
    </section>
  );
}

export function Blocks({ route }: { route: Route }) {
  return (
    <section>
      <h1>Blocks</h1>
      <CursorList route={route} id="blocks" load={(cursor, s) => get('/v1/blocks', {}, { cursor, limit: 20 }, s)}>
        {(p) => <BlockRows blocks={p.blocks} />}
      </CursorList>
    </section>
  );
}

export function Txs({ route }: { route: Route }) {
  const method = route.query.get('method') ?? undefined;
  return (
    <section>
      <h1>Transactions{method ? ` of ${methodName(method)}` : ''}</h1>
      <CursorList
        route={route}
        id={`txs:${method ?? ''}`}
        load={(cursor, s) => get('/v1/txs', {}, { cursor, method, limit: 20 }, s)}
        after={(p) => (
          <>
            <h2>By method (whole chain)</h2>
            <ul class="methods">
              {p.methods.map((m) => (
                <li key={m.method}>
                  <a href={href(['txs'], { method: m.method })}>{methodName(m.method)}</a> {m.count}
                </li>
              ))}
            </ul>
          </>
        )}
      >
        {(p) => (
          <>
            <p class="muted">{p.total} txs</p>
            <TxRows txs={p.txs} />
          </>
        )}
      </CursorList>
    </section>
  );
}

export function Events({ events }: { events: S['Event'][] }) {
  return (
    <table class="list events">
      <thead>
        <tr>
          <th>#</th>
          <th>type</th>
          <th>msg</th>
          <th>applied</th>
          <th>fields</th>
        </tr>
      </thead>
      <tbody>
        {events.map((e) => (
          <tr key={e.event_index}>
            <td>{e.event_index}</td>
            <td class="mono">
              {e.type}
              {e.mode ? <span class="muted"> ({e.mode})</span> : null}
            </td>
            <td>{e.msg_index ?? '—'}</td>
            <td>{e.applied ? 'yes' : 'no'}</td>
            <td>
              {e.decoded ? (
                <Json value={e.decoded} />
              ) : (
                <details>
                  <summary>{e.attributes.length} attributes</summary>
                  <Json value={Object.fromEntries(e.attributes.map((a) => [a.key, a.value]))} />
                </details>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function Block({ height }: { height: string }) {
  const b = useApi(`block:${height}`, (s) => get('/v1/blocks/{height}', { height }, {}, s));
  return (
    <section>
      <h1>Block {height}</h1>
      <Show state={b}>
        {(d) => (
          <>
            <nav class="pager">
              {d.block.height > 1 ? (
                <a href={href(['block', d.block.height - 1])}>← block {d.block.height - 1}</a>
              ) : null}
              <a href={href(['block', d.block.height + 1])}>block {d.block.height + 1} →</a>
            </nav>
            <KV
              rows={[
                ['hash', <span class="mono">{d.block.hash}</span>],
                ['time', <Time t={d.block.time} />],
                ['proposer', <span class="mono">{d.block.proposer}</span>],
                ['txs', d.block.tx_count],
                ['events', d.block.event_count],
                ['proof of indexing', d.proof ? <span class="mono">{d.proof.hash}</span> : '—'],
              ]}
            />
            <h2>Transactions</h2>
            <TxRows txs={d.txs} />
            <h2>Block events</h2>
            <Events events={d.events} />
          </>
        )}
      </Show>
    </section>
  );
}

export function Tx({ hash }: { hash: string }) {
  const t = useApi(`tx:${hash}`, (s) => get('/v1/txs/{hash}', { hash }, {}, s));
  return (
    <section>
      <h1>
        Transaction <span class="mono small">{hash}</span>
      </h1>
      <Show state={t}>
        {(tx) => {
          const sender = senderOf(tx);
          return (
            <>
              <KV
                rows={[
                  ['block', <BlockLink height={tx.height} />],
                  ['time', <Time t={tx.block_time} />],
                  ['position', tx.tx_index],
                  [
                    'result',
                    tx.code === 0 ? (
                      'success'
                    ) : (
                      <span class="bad">
                        failed: code {tx.code} ({tx.codespace})
                      </span>
                    ),
                  ],
                  ...(tx.raw_log
                    ? ([['log', <span class="mono">{tx.raw_log}</span>]] as [string, preact.ComponentChildren][])
                    : []),
                  ['sender', sender ? <AccountLink addr={sender} /> : '—'],
                  ['gas', `${tx.gas_used} used of ${tx.gas_wanted}`],
                  ['fee', tx.fee.length ? tx.fee.map((c) => <Coin key={c.denom} {...c} />) : 'none'],
                ]}
              />
              {tx.evm ? (
                <>
                  <h2>EVM</h2>
                  <KV
                    rows={[
                      ['eth hash', <span class="mono">{tx.evm.eth_hash}</span>],
                      ['from', <span class="mono">{tx.evm.from}</span>],
                      ['to', <span class="mono">{tx.evm.to ?? '(contract creation)'}</span>],
                      ['value', <Coin denom={tx.evm.value.denom} amount={tx.evm.value.amount} />],
                      ['gas used', tx.evm.gas_used],
                      ['status', tx.evm.status === 1 ? 'success' : <span class="bad">reverted</span>],
                      ['revert reason', tx.evm.revert_reason ?? '—'],
                    ]}
                  />
                </>
              ) : null}
              <h2>Messages</h2>
              {tx.msgs.map((m, i) => (
                <div key={i}>
                  <h3 class="mono">
                    {i}: {m['@type']}
                  </h3>
                  <MsgLinks msg={m} />
                  <Json value={m} />
                </div>
              ))}
              <h2>Events</h2>
              <Events events={tx.events} />
            </>
          );
        }}
      </Show>
    </section>
  );
}

/** Links to the accounts and assets a message names. */
function MsgLinks({ msg }: { msg: Record<string, unknown> }) {
  const links: preact.ComponentChildren[] = [];
  for (const [k, v] of Object.entries(msg)) {
    if (typeof v !== 'string') continue;
    if (/^svc1[0-9a-z]{38,}$/.test(v))
      links.push(
        <li key={k}>
          {k}: <AccountLink addr={v} />
        </li>,
      );
    else if (/^[0-9a-f]{64}$/.test(v) && /asset/.test(k))
      links.push(
        <li key={k}>
          {k}:{' '}
          <a href={href(['asset', v])} class="mono">
            {short(v)}
          </a>
        </li>,
      );
  }
  return links.length ? <ul class="links">{links}</ul> : null;
}

function senderOf(tx: S['Tx']): string | undefined {
  const m = tx.msgs[0] ?? {};
  for (const k of [
    'sender',
    'from_address',
    'creator',
    'issuer',
    'holder',
    'proposer',
    'signer',
    'from',
    'owner',
    'authority',
  ]) {
    const v = (m as Record<string, unknown>)[k];
    if (typeof v === 'string' && v.startsWith('svc1')) return v;
  }
  return undefined;
}

const candidateHref = (c: S['Candidate']): string =>
  c.type === 'block' ? href(['block', c.id]) : href([c.type, c.id]);

export function Search({ q }: { q: string }) {
  const r = useApi(`lookup:${q}`, (s) => get('/v1/lookup/{q}', { q }, {}, s));
  useEffect(() => {
    if (r.data && r.data.candidates.length === 1) navigate(candidateHref(r.data.candidates[0]), true);
  }, [r.data]);
  return (
    <section>
      <h1>
        Search <span class="mono small">{q}</span>
      </h1>
      <SearchBox />
      <Show state={r}>
        {(d) =>
          d.candidates.length === 0 ? (
            <p>Nothing on the chain matches {q}.</p>
          ) : (
            <ul data-testid="candidates">
              {d.candidates.map((c) => (
                <li key={`${c.type}:${c.id}`}>
                  <a href={candidateHref(c)}>
                    {c.type} {c.id}
                  </a>
                  {c.known === false ? <span class="muted"> (nothing recorded yet)</span> : null}
                </li>
              ))}
            </ul>
          )
        }
      </Show>
    </section>
  );
}
