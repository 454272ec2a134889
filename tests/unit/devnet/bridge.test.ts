import { Harness, addr, createAsset, issue, position, msg, typed, coinBalance } from './harness';
import { routeEscrowAddress } from '../../../devnet/app';
import { decodeBech32Address } from '../../../src/lib/address';

const authority = addr(7);
const issuer = addr(1);
const alice = addr(2);
const REMOTE = '0x' + '11'.repeat(32);
const REMOTE_USER = '0x' + '22'.repeat(32);
const msgId = (n: number) => '0x' + n.toString(16).padStart(64, '0');

function setup(version?: string) {
  const h = new Harness({
    version,
    genesis: {
      bridgeAuthority: authority,
      balances: [issuer, alice].map((address) => ({
        address,
        coins: [
          { denom: 'usvc', amount: '1000000' },
          { denom: 'uusdc', amount: '1000000' },
        ],
      })),
    },
  });
  return h;
}

const route = (id: string, extra: Record<string, unknown> = {}) => ({
  route_id: id,
  remote_domain: 1,
  remote_contract: REMOTE,
  direction: 'DIRECTION_NATIVE_OUT',
  local_denom: 'usvc',
  window_seconds: '60',
  outbound_limit: '1000',
  inbound_limit: '0',
  ...extra,
});
const createRoute = (h: Harness, r: Record<string, unknown>, sender = authority) =>
  h.tx(sender, msg('/svc.bridge.v1.MsgCreateRoute', { authority: sender, route: r }));
const out = (h: Harness, id: string, amount: string, sender = alice) =>
  h.tx(sender, msg('/svc.bridge.v1.MsgBridgeOut', { sender, route_id: id, recipient: REMOTE_USER, amount }));
const bridgeIn = (h: Harness, id: string, n: number, amount: string, recipient = alice) =>
  h.tx(
    authority,
    msg('/svc.bridge.v1.MsgBridgeIn', {
      relayer: authority,
      route_id: id,
      message_id: msgId(n),
      sender: REMOTE_USER,
      recipient,
      amount,
    }),
  );
const setStatus = (h: Harness, id: string, status: string) =>
  h.tx(authority, msg('/svc.bridge.v1.MsgSetRouteStatus', { authority, route_id: id, status }));
const counters = (h: Harness, id: string) =>
  h.query('/svc.bridge.v1.Query/Route', { route_id: id }).counters as Record<string, string>;
const tag = (r: { codespace: string; code: number }) => `${r.codespace}/${r.code}`;

describe('bridge module', () => {
  it('only the bridge authority creates routes; unknown route is bridge/2; invalid amount bridge/9', () => {
    const h = setup();
    expect(tag(createRoute(h, route('r1'), alice))).toBe('bridge/8');
    const created = createRoute(h, route('r1'));
    expect(typed(created.events, 'svc.bridge.v1.EventRouteCreated')[0].route).toMatchObject({
      route_id: 'r1',
      status: 'ROUTE_STATUS_ACTIVE',
      outbound_limit: '1000',
    });
    expect(tag(createRoute(h, route('r1')))).toBe('bridge/10');
    expect(tag(out(h, 'nope', '1'))).toBe('bridge/2');
    expect(tag(out(h, 'r1', '0'))).toBe('bridge/9');
  });

  it('NATIVE_OUT: escrows coins; cap per fixed window (bridge/5), reset in the next window', () => {
    const h = setup();
    h.emptyBlock(0);
    h.timeMs = Math.ceil(h.timeMs / 60_000) * 60_000; // start of a window
    createRoute(h, route('r1'));
    const first = out(h, 'r1', '600');
    const ev = typed(first.events, 'svc.bridge.v1.EventBridgedOut')[0];
    expect(ev.counters_after).toMatchObject({ outbound: '600', outbound_used: '600', transfers: '1' });
    expect(ev.message_id).toMatch(/^0x[0-9a-f]{64}$/);
    expect(tag(out(h, 'r1', '401'))).toBe('bridge/5');
    expect(out(h, 'r1', '400').code).toBe(0);
    h.commit();
    h.begin(60_000);
    const next = out(h, 'r1', '1000');
    expect(next.code).toBe(0);
    expect(typed(next.events, 'svc.bridge.v1.EventBridgedOut')[0].counters_after).toMatchObject({
      outbound: '2000',
      outbound_used: '1000',
    });
    h.commit();
    expect(h.query('/svc.bridge.v1.Query/EscrowBalance', { route_id: 'r1' }).amount).toBe('2000');
    expect(counters(h, 'r1')).toMatchObject({ outbound: '2000', inbound: '0', outbound_used: '1000', transfers: '3' });
    expect(coinBalance(h, routeEscrowAddress('r1', 'svc'), 'usvc')).toBe(2000n);
  });

  it('"0" limits mean no cap', () => {
    const h = setup();
    createRoute(h, route('r1', { outbound_limit: '0' }));
    expect(out(h, 'r1', '900000').code).toBe(0);
  });

  it('paused routes refuse MsgBridgeOut with bridge/4; resume re-opens; inbound still delivered', () => {
    const h = setup();
    createRoute(h, route('r1'));
    out(h, 'r1', '100');
    const paused = setStatus(h, 'r1', 'ROUTE_STATUS_PAUSED');
    expect(typed(paused.events, 'svc.bridge.v1.EventRouteStatusChanged')[0]).toEqual({
      route_id: 'r1',
      status: 'ROUTE_STATUS_PAUSED',
      previous: 'ROUTE_STATUS_ACTIVE',
    });
    expect(tag(out(h, 'r1', '1'))).toBe('bridge/4');
    expect(bridgeIn(h, 'r1', 1, '50').code).toBe(0);
    setStatus(h, 'r1', 'ROUTE_STATUS_ACTIVE');
    expect(out(h, 'r1', '1').code).toBe(0);
  });

  it('inbound: no more than the outstanding escrow (bridge/3), each message once (bridge/11)', () => {
    const h = setup();
    createRoute(h, route('r1'));
    out(h, 'r1', '100');
    expect(tag(bridgeIn(h, 'r1', 1, '101'))).toBe('bridge/3');
    const r = bridgeIn(h, 'r1', 1, '100');
    expect(typed(r.events, 'svc.bridge.v1.EventBridgedIn')[0].counters_after).toMatchObject({
      outbound: '100',
      inbound: '100',
      transfers: '2',
    });
    expect(tag(bridgeIn(h, 'r1', 1, '1'))).toBe('bridge/11');
  });

  it('SYNTHETIC_IN: inbound mints the synthetic denom, outbound burns it', () => {
    const h = setup();
    createRoute(h, route('eth', { direction: 'DIRECTION_SYNTHETIC_IN', local_denom: 'weth', outbound_limit: '0' }));
    bridgeIn(h, 'eth', 1, '500');
    out(h, 'eth', '200');
    h.commit();
    expect(coinBalance(h, alice, 'weth')).toBe(300n);
    expect(h.query('/svc.bridge.v1.Query/EscrowBalance', { route_id: 'eth' }).amount).toBe('300');
  });

  it('RIGHT_OUT: needs the kind bridgeable (bridge/6) and its effective policy OPEN (bridge/7); escrow is a 32-byte account', () => {
    const h = setup();
    const a = createAsset(h, issuer);
    issue(h, issuer, a, 1, alice, '1000');
    createRoute(
      h,
      route('right', {
        direction: 'DIRECTION_RIGHT_OUT',
        local_denom: '',
        asset_id: a,
        kind_id: 1,
        outbound_limit: '0',
      }),
    );
    expect(tag(out(h, 'right', '10'))).toBe('bridge/6');
    h.ok(issuer, msg('/svc.asset.v1.MsgSetBridgeable', { issuer, asset_id: a, kind_id: 1, bridgeable: true }));
    h.ok(
      issuer,
      msg('/svc.asset.v1.MsgSetKindPolicy', {
        issuer,
        asset_id: a,
        kind_id: 1,
        policy_override: { transfer: 'TRANSFER_MODE_RESTRICTED', allowlist: [alice] },
      }),
    );
    expect(tag(out(h, 'right', '10'))).toBe('bridge/7');
    h.ok(issuer, msg('/svc.asset.v1.MsgSetKindPolicy', { issuer, asset_id: a, kind_id: 1, clear: true }));
    const r = out(h, 'right', '10');
    const escrow = routeEscrowAddress('right', 'svc');
    expect(decodeBech32Address(escrow).bytes.length).toBe(32);
    expect(typed(r.events, 'svc.bridge.v1.EventBridgedOut')[0].positions_after).toEqual([
      { asset_id: a, kind_id: 1, holder: alice, units: '990', locked: '0' },
      { asset_id: a, kind_id: 1, holder: escrow, units: '10', locked: '0' },
    ]);
    h.commit();
    expect(h.query('/svc.bridge.v1.Query/Route', { route_id: 'right' }).route).toMatchObject({
      escrow_address: escrow,
      asset_id: a,
      kind_id: 1,
    });
    expect(h.query('/svc.bridge.v1.Query/EscrowBalance', { route_id: 'right' }).amount).toBe('10');
    bridgeIn(h, 'right', 9, '4');
    h.commit();
    expect(position(h, a, 1, escrow).units).toBe('6');
  });

  it('BeginBlock sweeps RIGHT_OUT escrow income into the escrow account (EventEscrowIncomeSwept)', () => {
    const h = setup();
    const a = createAsset(h, issuer);
    issue(h, issuer, a, 1, alice, '1000');
    h.ok(issuer, msg('/svc.asset.v1.MsgSetBridgeable', { issuer, asset_id: a, kind_id: 1, bridgeable: true }));
    createRoute(
      h,
      route('right', {
        direction: 'DIRECTION_RIGHT_OUT',
        local_denom: '',
        asset_id: a,
        kind_id: 1,
        outbound_limit: '0',
      }),
    );
    out(h, 'right', '100');
    h.ok(
      issuer,
      msg('/svc.payout.v1.MsgDistribute', {
        payer: issuer,
        asset_id: a,
        kind_id: 1,
        amount: { denom: 'uusdc', amount: '1000' },
      }),
    );
    h.commit();
    const { begin } = h.emptyBlock();
    const escrow = routeEscrowAddress('right', 'svc');
    expect(typed(begin, 'svc.bridge.v1.EventEscrowIncomeSwept')).toEqual([
      {
        route_id: 'right',
        escrow_address: escrow,
        asset_id: a,
        kind_id: 1,
        denom: 'uusdc',
        amount: '100',
        module_held_after: '900',
        total_paid_after: '100',
      },
    ]);
    expect(begin.every((e) => !e.attributes.some((x) => x.key === 'msg_index'))).toBe(true);
    expect(coinBalance(h, escrow, 'uusdc')).toBe(100n);
    expect(typed(h.emptyBlock().begin, 'svc.bridge.v1.EventEscrowIncomeSwept')).toEqual([]);
  });

  it('an old chain (< 0.12.0) has no RIGHT_OUT routes', () => {
    const h = setup('0.8.3');
    const a = createAsset(h, issuer);
    expect(
      tag(createRoute(h, route('right', { direction: 'DIRECTION_RIGHT_OUT', local_denom: '', asset_id: a }))),
    ).toBe('bridge/3');
  });
});
