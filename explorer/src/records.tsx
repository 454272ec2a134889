/** Settlements, encumbrances, delegations with their timelines; bridge routes and transfers; invariants and drift. */
import { useState } from 'preact/hooks';
import { get, type S } from './api';
import {
  AccountLink,
  Amount,
  AssetLink,
  BlockLink,
  Coin,
  CursorList,
  href,
  KV,
  navigate,
  Show,
  Time,
  TxLink,
  Units,
  useApi,
  type Route,
} from './ui';

function LegView({ leg }: { leg: S['Leg'] }) {
  return (
    <li>
      {leg.direction === 'LEG_DIRECTION_GIVE' ? 'gives' : 'asks'}{' '}
      {leg.right ? (
        <>
          <Units raw={leg.right.units} /> of <AssetLink id={leg.right.asset_id} /> kind {leg.right.kind_id}
        </>
      ) : leg.coin ? (
        <Coin {...leg.coin} />
      ) : (
        '—'
      )}
    </li>
  );
}

export function Settlements({ route }: { route: Route }) {
  const party = route.query.get('party') ?? undefined;
  const status = (route.query.get('status') ?? undefined) as 'pending' | undefined;
  return (
    <section>
      <h1>Settlements</h1>
      <Filters
        route={route}
        fields={[
          ['party', 'party address'],
          ['status', 'status: pending, settled, cancelled, expired'],
        ]}
      />
      <CursorList
        route={route}
        id={`settlements:${party ?? ''}:${status ?? ''}`}
        load={(cursor, s) => get('/v1/settlements', {}, { cursor, party, status, limit: 20 }, s)}
      >
        {(p) => (
          <table class="list" data-testid="settlement-rows">
            <thead>
              <tr>
                <th>id</th>
                <th>proposer</th>
                <th>counterparty</th>
                <th>status</th>
                <th>expiry (UTC)</th>
              </tr>
            </thead>
            <tbody>
              {p.settlements.map((x) => (
                <tr key={x.id}>
                  <td>
                    <a href={href(['settlement', x.id])}>{x.id}</a>
                  </td>
                  <td>
                    <AccountLink addr={x.proposer} />
                  </td>
                  <td>
                    <AccountLink addr={x.counterparty} />
                  </td>
                  <td>{x.status.replace('STATUS_', '')}</td>
                  <td>
                    <Time t={x.expiry} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </CursorList>
    </section>
  );
}

export function Settlement({ id }: { id: string }) {
  const r = useApi(`settlement:${id}`, (s) => get('/v1/settlements/{id}', { id }, {}, s));
  return (
    <section>
      <h1>Settlement {id}</h1>
      <Show state={r}>
        {({ settlement: x }) => (
          <>
            <KV
              rows={[
                ['status', x.status.replace('STATUS_', '') + (x.cancel_reason ? ` (${x.cancel_reason})` : '')],
                ['proposer', <AccountLink addr={x.proposer} />],
                ['counterparty', <AccountLink addr={x.counterparty} />],
                ['expiry', <Time t={x.expiry} />],
                [
                  'created',
                  <span>
                    <Time t={x.created_at} /> in <TxLink hash={x.created_tx_hash} />
                  </span>,
                ],
              ]}
            />
            <h2>Legs</h2>
            <ul>
              {x.legs.map((l, i) => (
                <LegView key={i} leg={l} />
              ))}
            </ul>
            <h2>Timeline</h2>
            <ol data-testid="timeline">
              {(x.timeline ?? []).map((t, i) => (
                <li key={i}>
                  {t.event} at <BlockLink height={t.height} /> (<Time t={t.block_time} />) <TxLink hash={t.tx_hash} />
                  {t.actor ? (
                    <>
                      {' '}
                      by <AccountLink addr={t.actor} />
                    </>
                  ) : null}
                  {t.reason ? ` — ${t.reason}` : ''}
                </li>
              ))}
            </ol>
          </>
        )}
      </Show>
    </section>
  );
}

export function Encumbrance({ id }: { id: string }) {
  const r = useApi(`encumbrance:${id}`, (s) => get('/v1/encumbrances/{id}', { id }, {}, s));
  return (
    <section>
      <h1>Encumbrance {id}</h1>
      <Show state={r}>
        {({ encumbrance: e, timeline }) => (
          <>
            <KV
              rows={[
                ['kind', e.kind],
                ['status', e.status],
                [
                  'asset',
                  <span>
                    <AssetLink id={e.asset_id} /> kind {e.kind_id}
                  </span>,
                ],
                ['holder', <AccountLink addr={e.holder} />],
                ['beneficiary', <AccountLink addr={e.beneficiary} />],
                ['units', <Units raw={e.units} />],
                ['income to beneficiary', e.income_to_beneficiary ? 'yes' : 'no'],
                ['exercisable', e.exercisable ? 'yes' : 'no'],
                ['expiry', <Time t={e.expiry} />],
                ['holder may release after', <Time t={e.holder_release_after} />],
                ['created', <TxLink hash={e.created_tx_hash} />],
              ]}
            />
            <h2>Timeline</h2>
            <ol data-testid="timeline">
              {timeline.map((t, i) => (
                <li key={i}>
                  {t.event} at <BlockLink height={t.height} /> (<Time t={t.block_time} />) <TxLink hash={t.tx_hash} />
                  {t.actor ? (
                    <>
                      {' '}
                      by <AccountLink addr={t.actor} /> ({t.actor_role})
                    </>
                  ) : null}
                  {t.units?.units ? (
                    <>
                      {' '}
                      — <Units raw={t.units.units} /> units
                    </>
                  ) : null}
                </li>
              ))}
            </ol>
          </>
        )}
      </Show>
    </section>
  );
}

export function Delegation({ id }: { id: string }) {
  const r = useApi(`delegation:${id}`, (s) => get('/v1/delegations/{id}', { id }, {}, s));
  return (
    <section>
      <h1>Delegation {id}</h1>
      <Show state={r}>
        {({ delegation: d }) => (
          <>
            <KV
              rows={[
                ['holder', <AccountLink addr={d.holder} />],
                ['delegate', <AccountLink addr={d.delegate} />],
                [
                  'asset',
                  <span>
                    <AssetLink id={d.asset_id} /> kind {d.kind_id}
                  </span>,
                ],
                ['units', <Units raw={d.units} />],
                ['purposes', d.purposes.join(', ') || '—'],
                ['revocable', d.revocable ? 'yes' : 'no'],
                ['until', <Time t={d.until} />],
              ]}
            />
            <h2>Timeline</h2>
            <ol data-testid="timeline">
              <li>
                created at <BlockLink height={d.created_height} /> in <TxLink hash={d.created_tx_hash} />
              </li>
              {d.ended ? (
                <li>
                  ended ({d.ended.replace('END_REASON_', '').toLowerCase()}) at <BlockLink height={d.ended_height} />
                </li>
              ) : (
                <li>
                  active until <Time t={d.until} />
                </li>
              )}
            </ol>
          </>
        )}
      </Show>
    </section>
  );
}

/** A filter form whose values live in the URL (so a filtered list is a link too). */
function Filters({ route, fields }: { route: Route; fields: [string, string][] }) {
  const [values, setValues] = useState<Record<string, string>>(
    Object.fromEntries(fields.map(([k]) => [k, route.query.get(k) ?? ''])),
  );
  return (
    <form
      class="search"
      aria-label="filters"
      onSubmit={(e) => {
        e.preventDefault();
        navigate(href(route.parts, values));
      }}
    >
      {fields.map(([k, label]) => (
        <input
          key={k}
          aria-label={label}
          placeholder={label}
          value={values[k]}
          onInput={(e) => setValues({ ...values, [k]: (e.target as HTMLInputElement).value.trim() })}
        />
      ))}
      <button type="submit">Filter</button>
    </form>
  );
}

export function Bridge({ route }: { route: Route }) {
  const routes = useApi('bridge-routes', (s) => get('/v1/bridge/routes', {}, {}, s));
  // a transfer's amount is in its route's units: shown with the route's exponent once the routes are read
  const exponent = new Map((routes.data?.routes ?? []).map((r) => [r.route_id, r.exponent]));
  const q = {
    route: route.query.get('route') ?? undefined,
    status: (route.query.get('status') ?? undefined) as 'in_flight' | undefined,
    account: route.query.get('account') ?? undefined,
    message_id: route.query.get('message_id') ?? undefined,
  };
  return (
    <section>
      <h1>Bridge</h1>
      <h2>Routes</h2>
      <Show state={routes}>
        {(r) => (
          <table class="list" data-testid="routes">
            <thead>
              <tr>
                <th>route</th>
                <th>direction</th>
                <th>denom</th>
                <th>status</th>
                <th>outstanding</th>
                <th>out used / limit</th>
                <th>transfers</th>
                <th>I8</th>
              </tr>
            </thead>
            <tbody>
              {r.routes.map((x) => (
                <tr key={x.route_id}>
                  <td class="mono">
                    <a href={href(['bridge'], { route: x.route_id })}>{x.display || x.route_id}</a>
                  </td>
                  <td>{x.direction.replace('DIRECTION_', '')}</td>
                  <td>{x.local_denom}</td>
                  <td>{x.status.replace('ROUTE_STATUS_', '')}</td>
                  <td>
                    <Amount raw={x.outstanding} decimals={x.exponent} />
                  </td>
                  <td>
                    <Amount raw={x.outbound_used} decimals={x.exponent} /> /{' '}
                    <Amount raw={x.outbound_limit} decimals={x.exponent} />
                  </td>
                  <td>{x.transfers}</td>
                  <td>{x.i8 ? x.i8.agree ? 'agrees' : <span class="bad">disagrees</span> : '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Show>
      <h2>Transfers</h2>
      <Filters
        route={route}
        fields={[
          ['route', 'route id'],
          ['status', 'status: in_flight, completed, rejected'],
          ['account', 'account (bech32 or 0x)'],
          ['message_id', 'message id (0x…)'],
        ]}
      />
      <CursorList
        route={route}
        id={`bridge-transfers:${JSON.stringify(q)}`}
        load={(cursor, s) => get('/v1/bridge/transfers', {}, { ...q, cursor, limit: 20 }, s)}
      >
        {(t) => (
          <table class="list" data-testid="transfers">
            <thead>
              <tr>
                <th>height</th>
                <th>route</th>
                <th>direction</th>
                <th>status</th>
                <th>amount</th>
                <th>sender</th>
                <th>recipient</th>
                <th>tx</th>
              </tr>
            </thead>
            <tbody>
              {t.transfers.map((x) => (
                <tr key={`${x.height}:${x.tx_index}:${x.event_index}`}>
                  <td>
                    <BlockLink height={x.height} />
                  </td>
                  <td class="mono">{x.route_id.slice(0, 12)}</td>
                  <td>{x.direction}</td>
                  <td>
                    {x.status}
                    {x.reason ? ` (${x.reason})` : ''}
                  </td>
                  <td>
                    <Amount raw={x.amount} decimals={exponent.get(x.route_id) ?? 0} />
                  </td>
                  <td class="mono">
                    {x.sender.startsWith('svc1') ? <AccountLink addr={x.sender} /> : x.sender.slice(0, 14)}
                  </td>
                  <td class="mono">
                    {x.recipient.startsWith('svc1') ? <AccountLink addr={x.recipient} /> : x.recipient.slice(0, 14)}
                  </td>
                  <td>
                    <TxLink hash={x.tx_hash} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </CursorList>
    </section>
  );
}

export function Invariants({ route }: { route: Route }) {
  const asset = route.query.get('asset') ?? undefined;
  const status = useApi('status', (s) => get('/v1/status', {}, {}, s));
  const r = useApi(`invariants:${asset}`, (s) => get('/v1/invariants', {}, { asset }, s));
  return (
    <section>
      <h1>Invariants and drift</h1>
      <Show state={status}>
        {(s) => (
          <p>
            Drift recorded so far: <strong>{s.drift_total}</strong> disagreement(s) (a record, never decremented).
            Indexed height <BlockLink height={s.indexed_height} />.
          </p>
        )}
      </Show>
      <Filters route={route} fields={[['asset', 'asset id']]} />
      <Show state={r}>
        {(d) => (
          <>
            <h2>Supply checks (chain vs index)</h2>
            <table class="list" data-testid="checks">
              <thead>
                <tr>
                  <th>asset</th>
                  <th>kind</th>
                  <th>height</th>
                  <th>agree</th>
                  <th>chain supply</th>
                  <th>indexed supply</th>
                </tr>
              </thead>
              <tbody>
                {d.checks.map((c) => (
                  <tr key={`${c.asset_id}:${c.kind_id}:${c.height}`}>
                    <td>
                      <AssetLink id={c.asset_id} />
                    </td>
                    <td>{c.kind_id}</td>
                    <td>
                      <BlockLink height={c.height} />
                    </td>
                    <td>{c.agree ? 'yes' : <span class="bad">no</span>}</td>
                    <td>
                      <Units raw={c.chain.supply} />
                    </td>
                    <td>
                      <Units raw={c.indexer.supply} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            <h2>SVC-20 registry</h2>
            <table class="list">
              <thead>
                <tr>
                  <th>asset</th>
                  <th>token</th>
                  <th>height</th>
                  <th>agree</th>
                </tr>
              </thead>
              <tbody>
                {d.svc20_registry.map((c) => (
                  <tr key={`${c.asset_id}:${c.kind_id}:${c.bundle}`}>
                    <td>
                      <AssetLink id={c.asset_id} />
                    </td>
                    <td class="mono">
                      {c.bundle ? 'bundle' : `kind ${c.kind_id}`}: {c.indexer_address}
                    </td>
                    <td>{c.height}</td>
                    <td>{c.evaluated ? c.agree ? 'yes' : <span class="bad">no</span> : 'not evaluated'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        )}
      </Show>
    </section>
  );
}
