/**
 * The app services for a person: the desk's quotes and RFQ, the lender's terms and a borrower's
 * loans, the launchpad's form. The page never holds a key: it shows the message to sign.
 */
import { useState } from 'preact/hooks';
import { ApiError, get, post, type A } from './api';
import {
  AccountLink,
  Amount,
  AssetLink,
  Coin,
  ErrorBox,
  href,
  Json,
  navigate,
  Show,
  Time,
  TxLink,
  useApi,
  type Route,
} from './ui';

const STABLE = 'uusdc';

function Withheld({ reason }: { reason: string | null }) {
  return reason ? (
    <span class="bad" title="why the desk withholds this side">
      withheld: {reason}
    </span>
  ) : null;
}

export function Desk() {
  const quotes = useApi('desk-quotes', (s) => get('/api/desk/quotes', {}, {}, s));
  return (
    <section>
      <h1>Trade desk</h1>
      <Show state={quotes}>
        {(q) => (
          <>
            <table class="list" data-testid="quotes">
              <thead>
                <tr>
                  <th>name</th>
                  <th>symbol</th>
                  <th>asset</th>
                  <th>kind</th>
                  <th>bid</th>
                  <th>mid</th>
                  <th>ask</th>
                </tr>
              </thead>
              <tbody>
                {q.quotes.map((x) => (
                  <tr key={`${x.asset_id}:${x.kind}`}>
                    <td>{x.name}</td>
                    <td>{x.symbol}</td>
                    <td>
                      <AssetLink id={x.asset_id} />
                    </td>
                    <td>{x.kind}</td>
                    <td>{x.bid ? <Coin denom={STABLE} amount={x.bid} /> : <Withheld reason={x.bid_withheld} />}</td>
                    <td>
                      <Coin denom={STABLE} amount={x.mid} />
                    </td>
                    <td>{x.ask ? <Coin denom={STABLE} amount={x.ask} /> : <Withheld reason={x.ask_withheld} />}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <p class="muted">Prices are per whole unit of the kind.</p>
            {q.not_quoted.length ? (
              <>
                <h2>Not quoted</h2>
                <ul>
                  {q.not_quoted.map((n) => (
                    <li key={n.asset_id}>
                      {n.name} ({n.symbol}): {n.reason} — {n.detail}
                    </li>
                  ))}
                </ul>
              </>
            ) : null}
            <Rfq quotes={q.quotes} />
          </>
        )}
      </Show>
    </section>
  );
}

function Rfq({ quotes }: { quotes: A['Quote'][] }) {
  const [address, setAddress] = useState('');
  const [pick, setPick] = useState(quotes[0] ? `${quotes[0].asset_id}:${quotes[0].kind}` : '');
  const [side, setSide] = useState<'sell' | 'buy'>('sell');
  const [units, setUnits] = useState('1000000');
  const [answer, setAnswer] = useState<A['RfqAnswer'] | undefined>();
  const [error, setError] = useState<Error | undefined>();
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    const [asset_id, kind] = pick.split(':');
    setBusy(true);
    setError(undefined);
    setAnswer(undefined);
    try {
      setAnswer(await post('/api/desk/rfq', { address: address.trim(), asset_id, kind: Number(kind), side, units }));
    } catch (err) {
      setError(err as Error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <h2>Request a quote</h2>
      <form class="stack" onSubmit={submit} aria-label="request for quote">
        <label for="rfq-address">your address</label>
        <input
          id="rfq-address"
          required
          value={address}
          placeholder="svc1…"
          onInput={(e) => setAddress((e.target as HTMLInputElement).value)}
        />
        <label for="rfq-asset">asset and kind</label>
        <select id="rfq-asset" value={pick} onChange={(e) => setPick((e.target as HTMLSelectElement).value)}>
          {quotes.map((q) => (
            <option key={`${q.asset_id}:${q.kind}`} value={`${q.asset_id}:${q.kind}`}>
              {q.symbol} kind {q.kind}
            </option>
          ))}
        </select>
        <label for="rfq-side">you</label>
        <select
          id="rfq-side"
          value={side}
          onChange={(e) => setSide((e.target as HTMLSelectElement).value as 'sell' | 'buy')}
        >
          <option value="sell">sell to the desk</option>
          <option value="buy">buy from the desk</option>
        </select>
        <label for="rfq-units">units (raw integer)</label>
        <input
          id="rfq-units"
          required
          pattern="[0-9]+"
          value={units}
          onInput={(e) => setUnits((e.target as HTMLInputElement).value)}
        />
        <span />
        <button type="submit" disabled={busy}>
          {busy ? 'asking…' : 'Ask the desk'}
        </button>
      </form>
      {error ? <ErrorBox error={error} /> : null}
      {answer ? (
        <div class="ok" data-testid="rfq-answer">
          <p>
            The desk proposed <a href={href(['settlement', answer.settlement_id])}>settlement {answer.settlement_id}</a>
            : you {answer.side} <Amount raw={answer.units} decimals={6} unit="units" /> of{' '}
            <AssetLink id={answer.asset_id} /> kind {answer.kind} for <Coin denom={STABLE} amount={answer.amount} />{' '}
            (price <Coin denom={STABLE} amount={answer.price} />
            ), until <Time t={answer.expiry} />.
          </p>
          <p>To accept, sign and broadcast this message with your own key (the page holds none):</p>
          <Json
            value={{
              '@type': '/svc.settlement.v1.MsgAccept',
              counterparty: address.trim(),
              settlement_id: String(answer.settlement_id),
            }}
          />
          <p>
            or from a checkout:{' '}
            <code class="cmd">npm run example -- {answer.side} --account &lt;your cast name&gt;</code>
          </p>
        </div>
      ) : null}
    </>
  );
}

export function Lender({ route }: { route: Route }) {
  const terms = useApi('lender-terms', (s) => get('/api/lender/terms', {}, {}, s));
  const address = route.query.get('address') ?? '';
  const [input, setInput] = useState(address);
  const loans = useApi(`loans:${address}`, (s) =>
    address ? get('/api/lender/loans', {}, { address }, s) : Promise.resolve(undefined),
  );
  return (
    <section>
      <h1>Lender</h1>
      <Show state={terms}>
        {(t) => (
          <>
            <p>
              Lends <strong>{t.denom}</strong> against pledged shares at {t.ltv_bps / 100}% of their value (liquidation
              at {t.liquidation_ltv_bps / 100}%), at most <Coin denom={t.denom} amount={t.max_principal} /> a loan;
              pledges within {t.pledge_window_seconds} s count as one. Lender account: <AccountLink addr={t.lender} />
            </p>
            <table class="list" data-testid="capacity">
              <thead>
                <tr>
                  <th>asset</th>
                  <th>symbol</th>
                  <th>lendable</th>
                  <th>limited by</th>
                </tr>
              </thead>
              <tbody>
                {t.capacity.map((c) => (
                  <tr key={c.asset_id}>
                    <td>
                      <AssetLink id={c.asset_id} />
                    </td>
                    <td>{c.symbol ?? '—'}</td>
                    <td>
                      <Coin denom={t.denom} amount={c.lendable} />
                    </td>
                    <td>{c.limited_by ? `${c.limited_by}${c.detail ? `: ${c.detail}` : ''}` : '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <p>
              To borrow, pledge shares to the lender (<code>npm run example -- borrow</code> shows each pledge tx).
            </p>
          </>
        )}
      </Show>
      <h2>A borrower's loans</h2>
      <form
        class="search"
        onSubmit={(e) => {
          e.preventDefault();
          navigate(href(['lender'], { address: input.trim() }));
        }}
      >
        <input
          aria-label="borrower address"
          placeholder="svc1…"
          value={input}
          onInput={(e) => setInput((e.target as HTMLInputElement).value)}
        />
        <button type="submit">Show loans</button>
      </form>
      {address ? (
        <Show state={loans}>
          {(l) =>
            !l || l.loans.length === 0 ? (
              <p>No loans for {address}.</p>
            ) : (
              <table class="list" data-testid="loans">
                <thead>
                  <tr>
                    <th>loan</th>
                    <th>asset</th>
                    <th>units</th>
                    <th>principal</th>
                    <th>status</th>
                    <th>reason</th>
                    <th>txs</th>
                  </tr>
                </thead>
                <tbody>
                  {l.loans.map((x) => (
                    <tr key={x.id}>
                      <td class="mono">{x.id}</td>
                      <td>
                        {x.symbol ?? ''} <AssetLink id={x.asset_id} />
                      </td>
                      <td>
                        <Amount raw={x.units} decimals={6} />
                      </td>
                      <td>
                        <Coin denom={STABLE} amount={x.principal} />
                      </td>
                      <td>{x.status}</td>
                      <td>{x.reason ? `${x.reason}${x.detail ? `: ${x.detail}` : ''}` : (x.limited_by ?? '—')}</td>
                      <td>
                        <TxLink hash={x.open_tx} /> <TxLink hash={x.close_tx} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )
          }
        </Show>
      ) : null}
    </section>
  );
}

function readPng(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(String(r.result).replace(/^data:[^,]*,/, ''));
    r.onerror = () => reject(r.error);
    r.readAsDataURL(file);
  });
}

export function Launchpad() {
  const [f, setF] = useState({ name: '', symbol: '', description: '', template: 'equity' as A['Template'] });
  const [logo, setLogo] = useState<string | null>(null);
  const [answer, setAnswer] = useState<A['MetaHashAnswer'] | undefined>();
  const [error, setError] = useState<Error | undefined>();
  const set = (k: keyof typeof f) => (e: Event) => setF({ ...f, [k]: (e.target as HTMLInputElement).value });
  const submit = async (e: Event) => {
    e.preventDefault();
    setError(undefined);
    setAnswer(undefined);
    try {
      setAnswer(await post('/api/launchpad/metadata', { ...f, logo }));
    } catch (err) {
      setError(err as Error);
    }
  };
  return (
    <section>
      <h1>Launchpad</h1>
      <p>
        Store an asset's document: the service checks it and answers its <code>meta_hash</code>, which your
        MsgCreateAsset carries.
      </p>
      <form class="stack" onSubmit={submit} aria-label="launchpad document">
        <label for="lp-name">name</label>
        <input id="lp-name" value={f.name} onInput={set('name')} />
        <label for="lp-symbol">symbol</label>
        <input id="lp-symbol" value={f.symbol} onInput={set('symbol')} />
        <label for="lp-description">description</label>
        <textarea id="lp-description" rows={3} value={f.description} onInput={set('description')} />
        <label for="lp-template">template</label>
        <select id="lp-template" value={f.template} onChange={set('template')}>
          {(['community', 'dividend', 'equity', 'bond'] as const).map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </select>
        <label for="lp-logo">logo (PNG)</label>
        <input
          id="lp-logo"
          type="file"
          accept="image/png"
          onChange={async (e) => {
            const file = (e.target as HTMLInputElement).files?.[0];
            setLogo(file ? await readPng(file) : null);
          }}
        />
        <span />
        <button type="submit">Check and store</button>
      </form>
      {error ? (
        <div data-testid="launchpad-refusal">
          <ErrorBox error={error} />
          {error instanceof ApiError && error.status === 400 ? (
            <p>The service refused the document; change it and try again.</p>
          ) : null}
        </div>
      ) : null}
      {answer ? (
        <div class="ok" data-testid="launchpad-answer">
          <p>
            Stored. meta_hash: <span class="mono">{answer.meta_hash}</span>
          </p>
          <p>Put it in your MsgCreateAsset and sign it with your own key:</p>
          <Json
            value={{
              '@type': '/svc.asset.v1.MsgCreateAsset',
              issuer: 'svc1…(you)',
              meta_hash: answer.meta_hash,
              '…': '…',
            }}
          />
        </div>
      ) : null}
    </section>
  );
}
