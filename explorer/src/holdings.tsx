/** Account and asset pages. */
import { get, type S } from './api';
import {
  AccountLink,
  AssetLink,
  BlockLink,
  Coin,
  CursorList,
  decimalsOf,
  href,
  Json,
  KV,
  Show,
  Time,
  TxLink,
  Units,
  useApi,
  type Route,
} from './ui';

export function ActivityRows({ events }: { events: S['ActivityEvent'][] }) {
  return (
    <table class="list" data-testid="activity-rows">
      <thead>
        <tr>
          <th>height</th>
          <th>tx</th>
          <th>event</th>
          <th>time (UTC)</th>
          <th>fields</th>
        </tr>
      </thead>
      <tbody>
        {events.map((e) => (
          <tr
            key={`${e.height}:${e.tx_index}:${e.event_index}`}
            data-key={`${e.height}:${e.tx_index}:${e.event_index}`}
          >
            <td>
              <BlockLink height={e.height} />
            </td>
            <td>
              <TxLink hash={e.tx_hash} />
            </td>
            <td class="mono">{e.type.replace(/^svc\./, '')}</td>
            <td>
              <Time t={e.block_time} />
            </td>
            <td>
              <details>
                <summary>decoded</summary>
                <Json value={e.decoded} />
              </details>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

const lockRef = (ref: string | undefined) => {
  const m = /^(encumbrance|settlement|delegation)\/(\d+)$/.exec(ref ?? '');
  return m ? <a href={href([m[1], m[2]])}>{ref}</a> : <span>{ref}</span>;
};

export function Account({ addr, route }: { addr: string; route: Route }) {
  const acct = useApi(`account:${addr}`, (s) => get('/v1/accounts/{addr}', { addr }, {}, s));
  return (
    <section>
      <h1>
        Account <span class="mono small">{addr}</span>
      </h1>
      <Show state={acct}>
        {(a) => (
          <>
            <KV
              rows={[
                ['address', <span class="mono">{a.address}</span>],
                ['EVM address', <span class="mono">{a.evm_address ?? '—'}</span>],
                ['as of', <Time t={a.latest_block_time} />],
              ]}
            />
            <h2>Positions</h2>
            <table class="list" data-testid="positions">
              <thead>
                <tr>
                  <th>asset</th>
                  <th>kind</th>
                  <th>class</th>
                  <th>units</th>
                  <th>encumbered</th>
                  <th>locks</th>
                </tr>
              </thead>
              <tbody>
                {a.assets.flatMap((as) =>
                  as.positions.map((p) => {
                    const decimals = decimalsOf(p.units, p.whole_units);
                    return (
                      <tr key={`${as.asset_id}:${p.kind_id}`}>
                        <td>
                          <AssetLink id={as.asset_id} />
                        </td>
                        <td>{p.kind_id}</td>
                        <td>{p.class}</td>
                        <td>
                          <Units raw={p.units} decimals={decimals} />
                        </td>
                        <td>
                          <Units raw={p.encumbered} decimals={decimals} />
                        </td>
                        <td>
                          {(p.locks ?? []).map((l) => (
                            <div key={l.ref}>
                              {lockRef(l.ref)}: <Units raw={l.units} decimals={decimals} />
                            </div>
                          ))}
                        </td>
                      </tr>
                    );
                  }),
                )}
              </tbody>
            </table>
            {a.attestations.length ? (
              <>
                <h2>Attestations</h2>
                <table class="list">
                  <thead>
                    <tr>
                      <th>type</th>
                      <th>attester</th>
                      <th>expiry</th>
                      <th>live</th>
                    </tr>
                  </thead>
                  <tbody>
                    {a.attestations.map((t) => (
                      <tr key={`${t.type}:${t.attester}`}>
                        <td>{t.type}</td>
                        <td>
                          <AccountLink addr={t.attester} />
                        </td>
                        <td>
                          <Time t={t.expiry} />
                        </td>
                        <td>{t.live ? 'yes' : t.revoked ? 'revoked' : 'expired'}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </>
            ) : null}
            {a.pending_settlements.length ? (
              <>
                <h2>Pending settlements</h2>
                <ul>
                  {a.pending_settlements.map((s) => (
                    <li key={s.id}>
                      <a href={href(['settlement', s.id])}>settlement {s.id}</a> with{' '}
                      <AccountLink addr={s.proposer === a.address ? s.counterparty : s.proposer} />, expires{' '}
                      <Time t={s.expiry} />
                    </li>
                  ))}
                </ul>
              </>
            ) : null}
            {a.delegations.length ? (
              <>
                <h2>Delegations</h2>
                <ul>
                  {a.delegations.map((d) => (
                    <li key={d.id}>
                      <a href={href(['delegation', d.id])}>delegation {d.id}</a>: <Units raw={d.units} /> of{' '}
                      <AssetLink id={d.asset_id} /> to <AccountLink addr={d.delegate} />
                    </li>
                  ))}
                </ul>
              </>
            ) : null}
            {a.claimable.length ? (
              <>
                <h2>Claimable income</h2>
                <ul>
                  {a.claimable.map((c) => (
                    <li key={`${c.ref}:${c.asset_id}:${c.kind_id}:${c.denom}`}>
                      <Coin denom={c.denom} amount={c.total} /> from <AssetLink id={c.asset_id} /> kind {c.kind_id}
                    </li>
                  ))}
                </ul>
              </>
            ) : null}
          </>
        )}
      </Show>
      <h2>Activity</h2>
      <CursorList
        route={route}
        param="events"
        id={`account-events:${addr}`}
        load={(cursor, s) => get('/v1/accounts/{addr}/events', { addr }, { cursor, limit: 20 }, s)}
      >
        {(f) => <ActivityRows events={f.events} />}
      </CursorList>
    </section>
  );
}

export function Assets({ route }: { route: Route }) {
  return (
    <section>
      <h1>Assets</h1>
      <CursorList route={route} id="assets" load={(cursor, s) => get('/v1/assets', {}, { cursor, limit: 20 }, s)}>
        {(p) => (
          <table class="list" data-testid="asset-rows">
            <thead>
              <tr>
                <th>asset</th>
                <th>issuer</th>
                <th>status</th>
                <th>kinds</th>
                <th>created (UTC)</th>
              </tr>
            </thead>
            <tbody>
              {p.assets.map((a) => (
                <tr key={a.id}>
                  <td>
                    <AssetLink id={a.id} />
                  </td>
                  <td>
                    <AccountLink addr={a.issuer} />
                  </td>
                  <td>{a.status.replace('ASSET_STATUS_', '')}</td>
                  <td>{a.kind_count}</td>
                  <td>
                    <Time t={a.created_at} />
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

function Holders({ id, kind, decimals, route }: { id: string; kind: number; decimals: number; route: Route }) {
  return (
    <CursorList
      route={route}
      param="holders"
      id={`holders:${id}:${kind}`}
      load={(cursor, s) => get('/v1/assets/{id}/kinds/{kind}/holders', { id, kind }, { cursor, limit: 20 }, s)}
    >
      {(p) => (
        <table class="list" data-testid="holder-rows">
          <thead>
            <tr>
              <th>holder</th>
              <th>units</th>
              <th>encumbered</th>
              <th>locks</th>
            </tr>
          </thead>
          <tbody>
            {p.holders.map((h) => (
              <tr key={h.holder}>
                <td>
                  <AccountLink addr={h.holder} />
                </td>
                <td>
                  <Units raw={h.units} decimals={decimals} />
                </td>
                <td>
                  <Units raw={h.encumbered} decimals={decimals} />
                </td>
                <td>
                  {h.locks.map((l) => (
                    <div key={l.ref}>
                      {lockRef(l.ref)}: <Units raw={l.units} decimals={decimals} />
                    </div>
                  ))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </CursorList>
  );
}

export function Asset({ id, route }: { id: string; route: Route }) {
  const asset = useApi(`asset:${id}`, (s) => get('/v1/assets/{id}', { id }, {}, s));
  const graph = useApi(`graph:${id}`, (s) => get('/v1/assets/{id}/graph', { id }, {}, s));
  const liq = useApi(`liq:${id}`, (s) => get('/v1/assets/{id}/liquidation', { id }, {}, s));
  const kindParam = Number(route.query.get('kind') ?? '0');
  return (
    <section>
      <h1>
        Asset <span class="mono small">{id}</span>
      </h1>
      <Show state={asset}>
        {({ asset: a }) => {
          const kind = a.kinds.find((k) => k.kind_id === kindParam) ?? a.kinds[0];
          return (
            <>
              <KV
                rows={[
                  ['issuer', <AccountLink addr={a.issuer} />],
                  ['status', a.status.replace('ASSET_STATUS_', '')],
                  ['transfer policy', a.policy.transfer?.replace('TRANSFER_MODE_', '') ?? '—'],
                  ['attestation', a.policy.attestation_type || '—'],
                  ['settlement denom', a.settlement_denom],
                  ['issuance locked', a.issuance_locked ? 'yes' : 'no'],
                  ['meta_hash', <span class="mono">{a.meta_hash || '—'}</span>],
                  ['bundle token', <span class="mono">{a.bundle_address}</span>],
                  [
                    'created',
                    <span>
                      <Time t={a.created_at} /> in <TxLink hash={a.created_tx_hash} />
                    </span>,
                  ],
                  [
                    'latest invariant check',
                    a.latest_invariant_check ? (
                      <span>
                        height {a.latest_invariant_check.height}:{' '}
                        {a.latest_invariant_check.agree ? 'agrees' : <span class="bad">disagrees</span>}
                      </span>
                    ) : (
                      '—'
                    ),
                  ],
                ]}
              />
              <h2>Kinds</h2>
              <table class="list" data-testid="kind-rows">
                <thead>
                  <tr>
                    <th>kind</th>
                    <th>class</th>
                    <th>supply</th>
                    <th>holders</th>
                    <th>policy</th>
                    <th>transferable</th>
                    <th>token</th>
                  </tr>
                </thead>
                <tbody>
                  {a.kinds.map((k) => (
                    <tr key={k.kind_id}>
                      <td>
                        <a href={href(['asset', a.id], { kind: k.kind_id })}>{k.kind_id}</a>
                      </td>
                      <td>{k.class}</td>
                      <td>
                        <Units raw={k.supply} decimals={k.decimals} />
                      </td>
                      <td>{k.holder_count}</td>
                      <td>
                        {k.effective_policy.transfer?.replace('TRANSFER_MODE_', '')} ({k.policy_source})
                      </td>
                      <td>{k.transferable ? 'yes' : 'no'}</td>
                      <td class="mono">{k.svc20_address}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
              {kind ? (
                <>
                  <h2>Holders of kind {kind.kind_id}</h2>
                  <Holders id={a.id} kind={kind.kind_id} decimals={kind.decimals} route={route} />
                </>
              ) : null}
              {a.accruals.length ? (
                <>
                  <h2>Income accruals</h2>
                  <table class="list">
                    <thead>
                      <tr>
                        <th>kind</th>
                        <th>distributed</th>
                        <th>paid</th>
                        <th>claimable</th>
                      </tr>
                    </thead>
                    <tbody>
                      {a.accruals.map((x) => (
                        <tr key={`${x.kind_id}:${x.denom}`}>
                          <td>{x.kind_id}</td>
                          <td>
                            <Coin denom={x.denom} amount={x.total_distributed} />
                          </td>
                          <td>
                            <Coin denom={x.denom} amount={x.total_paid} />
                          </td>
                          <td>
                            <Coin denom={x.denom} amount={x.sum_claimable} />
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </>
              ) : null}
            </>
          );
        }}
      </Show>
      <h2>Rights graph</h2>
      <Show state={graph}>
        {(g) => (
          <ul class="graph" data-testid="graph">
            {g.kinds.map((k) => (
              <li key={k.kind_id}>
                kind {k.kind_id} ({k.class}), supply <Units raw={k.supply} />, {k.holder_count} holders
                <ul>
                  {(k.holders ?? []).map((h) => (
                    <li key={h.holder}>
                      <AccountLink addr={h.holder} />: <Units raw={h.units} />
                      {h.encumbered && h.encumbered !== '0' ? (
                        <span>
                          {' '}
                          (encumbered <Units raw={h.encumbered} />)
                        </span>
                      ) : null}
                    </li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
        )}
      </Show>
      <h2>Distributions</h2>
      <CursorList
        route={route}
        param="distributions"
        id={`distributions:${id}`}
        load={(cursor, s) => get('/v1/assets/{id}/distributions', { id }, { cursor, limit: 10 }, s)}
      >
        {(d) => (
          <table class="list" data-testid="distribution-rows">
            <thead>
              <tr>
                <th>height</th>
                <th>kind</th>
                <th>amount</th>
                <th>payer</th>
                <th>tx</th>
              </tr>
            </thead>
            <tbody>
              {d.distributions.map((x) => (
                <tr key={`${x.height}:${x.tx_index}:${x.event_index}`}>
                  <td>
                    <BlockLink height={x.height} />
                  </td>
                  <td>{x.kind_id}</td>
                  <td>
                    <Coin denom={x.denom} amount={x.amount} />
                  </td>
                  <td>
                    <AccountLink addr={x.payer} />
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
      <h2>Liquidation</h2>
      <Show state={liq}>
        {(l) =>
          l.liquidation ? (
            <KV
              rows={[
                ['status', l.liquidation.status],
                ['proceeds', <Coin denom={l.liquidation.denom} amount={l.liquidation.proceeds} />],
                ['surplus', <Coin denom={l.liquidation.denom} amount={l.liquidation.surplus} />],
                ['started', <Time t={l.liquidation.started_at} />],
              ]}
            />
          ) : (
            <p class="muted">
              No liquidation; waterfall ranks: {l.waterfall.map((w) => `kind ${w.kind_id}`).join(', ') || '—'}
            </p>
          )
        }
      </Show>
      <h2>Activity</h2>
      <CursorList
        route={route}
        param="events"
        id={`asset-events:${id}`}
        load={(cursor, s) => get('/v1/assets/{id}/events', { id }, { cursor, limit: 20 }, s)}
      >
        {(f) => <ActivityRows events={f.events} />}
      </CursorList>
    </section>
  );
}
