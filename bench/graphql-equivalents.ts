/**
 * bench:api's PostGraphile column: for each /v1 endpoint that has one, the GraphQL query a
 * client of PostGraphile (src/runtime/graphql.ts, as `npm start` serves it) sends for the same
 * data, with its inputs drawn like the REST request's (bench/endpoints.ts). Each asks for the
 * columns the REST answer is made from, as stored (JSON text stays text: PostGraphile does not
 * decode events). What the REST answer adds and GraphQL cannot ask for in the same request
 * (the EVM view of a tx, decoded events, cursors, sums) is left out, so PostGraphile's side
 * does less work than the API, never more. An activity feed needs two round trips (the
 * entries, then their txs' events): they count as one request.
 *
 * Endpoints without an entry have no equivalent: a query over several lists PostGraphile
 * cannot join or aggregate (graph, liquidation, attester counts, invariants, lookup), or a
 * key it cannot reach in one request (tx by eth hash, an account by its 0x form).
 */
import type { HttpRequest } from './load';
import { draw, type StoreSample } from './endpoints';
import { seqOf } from '../rest-adapter/paging/seq';

const { pick, randomInt } = draw;

const TX = 'hash height txIndex code codespace rawLog gasWanted gasUsed msgs fee blockTime events';
const BLOCK = 'height hash time proposer txCount eventCount';
const ASSET_SUMMARY = 'id issuer status kindCount issuanceLocked metaHash createdHeight createdAt';
const ASSET =
  ASSET_SUMMARY +
  ' nonce policy roles settlementDenom liensAllowed distributionDenoms bundleAddress createdTxHash updatedHeight';
const KIND =
  'kindId kindClass decimals bundle transferable term policyOverride bridgeable multiplier supply holderCount svc20Address';
const ACCRUAL = 'kindId denom index carryScaled totalDistributed totalPaid distributionsCount moduleHeld updatedHeight';
const HOLDING = 'holder units locked locks';
const DISTRIBUTION =
  'seq height txIndex eventIndex kindId denom payer amount supply newIndex carryScaled txHash blockTime';
const SETTLEMENT =
  'id number proposer counterparty legs expiry status cancelReason memoHash createdHeight createdTxHash createdAt updatedHeight';
const TIMELINE = 'event height blockTime txHash actor';
const ENCUMBRANCE =
  'id kind assetId kindId holder units beneficiary incomeToBeneficiary holderReleaseAfter exercisable expiry evidenceHash status createdHeight createdTxHash createdAt resolvedHeight updatedHeight';
const DELEGATION =
  'id holder delegate assetId kindId units until purposes revocable ended endedActor createdHeight createdTxHash endedHeight';
const ROUTE =
  'id remoteDomain remoteContract direction localDenom status windowSeconds outboundLimit inboundLimit warpTokenId display exponent outbound inbound outboundUsed inboundUsed windowStart transfers assetId kindId bundle escrowAddress incomeSwept createdHeight updatedHeight';
const TRANSFER =
  'seq height txIndex eventIndex txHash routeId direction status sender recipient amount messageId reason blockTimeNs assetId kindId bundle';
const ATTESTATION = 'type attester expiry revoked evidenceHash updatedHeight';

const GRAPHQL_PATH = '/graphql';

function graphql(query: string, variables: Record<string, unknown> = {}): HttpRequest {
  return { path: GRAPHQL_PATH, body: JSON.stringify({ query, variables }) };
}

/** The txs of a feed page's entries (their events), asked for once the entries are known. */
function feedTxs(entriesBody: string): HttpRequest {
  const data = (JSON.parse(entriesBody) as { data?: { activityEntries?: { nodes: { txHash: string | null }[] } } })
    .data;
  const hashes = [...new Set((data?.activityEntries?.nodes ?? []).map((n) => n.txHash).filter((h) => h !== null))];
  return graphql('query($ids: [String!]) { txes(filter: { id: { in: $ids } }) { nodes { id code events } } }', {
    ids: hashes,
  });
}

function feed(name: string, seqBelow: string): HttpRequest {
  return {
    ...graphql(
      `
        query ($feed: String!, $below: BigFloat!) {
          activityEntries(
            first: 20
            orderBy: SEQ_DESC
            filter: { feed: { equalTo: $feed }, seq: { lessThan: $below } }
          ) {
            nodes {
              seq
              txHash
            }
          }
          blocks(first: 1, orderBy: HEIGHT_DESC) {
            nodes {
              height
            }
          }
        }
      `,
      { feed: name, below: seqBelow },
    ),
    followUp: feedTxs,
  };
}

/** GraphQL equivalents by bench/endpoints.ts endpoint name. */
export function graphqlEquivalents(sample: StoreSample): Map<string, () => HttpRequest> {
  const { height, bigKind } = sample;
  const olderSeq = () => seqOf(randomInt(2, sample.height), 0, -1).toString();
  const feedSeq = () => seqOf(randomInt(2, height), 0, 0).toString();
  const txPage = (n: number) =>
    graphql(
      `query($n: Int!) {
        txes(first: $n, orderBy: SEQ_DESC) { nodes { ${TX} } }
        chainTotal(id: "chain") { txCount }
        methodCounts(orderBy: [COUNT_DESC, METHOD_ASC], filter: { count: { greaterThan: 0 } }) { nodes { method count } }
      }`,
      { n },
    );
  const olderPage = (method?: string) =>
    graphql(
      `query($below: BigFloat!${method ? ', $method: String!' : ''}) {
        txes(first: 21, orderBy: SEQ_DESC, filter: { seq: { lessThan: $below }${method ? ', method: { equalTo: $method }' : ''} }) { nodes { ${TX} } }
        chainTotal(id: "chain") { txCount }
        methodCounts(orderBy: [COUNT_DESC, METHOD_ASC], filter: { count: { greaterThan: 0 } }) { nodes { method count } }
      }`,
      method ? { below: olderSeq(), method } : { below: olderSeq() },
    );
  // the oldest page of /v1/txs holds total mod 20 txs (20 when exact)
  const lastPageSize = sample.txCount % 20 || 20;
  const kindRef = `${bigKind.asset_id}-${bigKind.kind_id}`;
  const holders = (after?: { units: string; holder: string }) =>
    graphql(
      `query($kindRef: String!, $asset: String!${after ? ', $units: BigFloat!, $holder: String!' : ''}) {
        asset(id: $asset) { status }
        holdings(first: 20, orderBy: [UNITS_DESC, HOLDER_ASC], filter: { kindRef: { equalTo: $kindRef }, units: { greaterThan: "0" }${
          after
            ? ', or: [{ units: { lessThan: $units } }, { units: { equalTo: $units }, holder: { greaterThan: $holder } }]'
            : ''
        } }) { nodes { ${HOLDING} } }
      }`,
      after ? { kindRef, asset: bigKind.asset_id, ...after } : { kindRef, asset: bigKind.asset_id },
    );
  const settlementsBelow = (extra: string, vars: Record<string, unknown>) =>
    graphql(
      `query($below: BigFloat!${Object.keys(vars)
        .map((k) => `, $${k}: String!`)
        .join('')}) {
        settlements(first: 20, orderBy: NUMBER_DESC, filter: { number: { lessThan: $below }${extra} }) { nodes { ${SETTLEMENT} } }
      }`,
      { below: String(randomInt(2, sample.settlementMax)), ...vars },
    );
  const asset = (id: string) =>
    graphql(
      `query($id: String!) {
        asset(id: $id) { ${ASSET} }
        kinds(orderBy: KIND_ID_ASC, filter: { assetId: { equalTo: $id } }) { nodes { ${KIND} } }
        accruals(orderBy: [KIND_ID_ASC, DENOM_ASC], filter: { assetId: { equalTo: $id } }) { nodes { ${ACCRUAL} } }
        _metadata { lastProcessedHeight }
      }`,
      { id },
    );
  const account = (addr: string) =>
    graphql(
      `query($a: String!) {
        holdings(filter: { holder: { equalTo: $a }, or: [{ units: { greaterThan: "0" } }, { locked: { greaterThan: "0" } }] }) { nodes { assetId kindId kindRef units locked locks } }
        settlements(filter: { status: { equalTo: "STATUS_PENDING" }, or: [{ proposer: { equalTo: $a } }, { counterparty: { equalTo: $a } }] }) { nodes { ${SETTLEMENT} } }
        attestations(filter: { subject: { equalTo: $a } }) { nodes { ${ATTESTATION} } }
        claimables(filter: { account: { equalTo: $a } }) { nodes { routedFrom ref assetId kindId denom units snapshotIndex accrued accrualId } }
        delegations(filter: { ended: { equalTo: "" }, or: [{ holder: { equalTo: $a } }, { delegate: { equalTo: $a } }] }) { nodes { ${DELEGATION} } }
        votingPowers(filter: { account: { equalTo: $a } }) { nodes { assetId kindId delegatedOut delegatedIn } }
        blocks(first: 1, orderBy: HEIGHT_DESC) { nodes { time } }
      }`,
      { a: addr },
    );
  const transfers = (filter: string, vars: Record<string, string>) =>
    graphql(
      `query(${Object.keys(vars)
        .map((k) => `$${k}: ${k === 'below' ? 'BigFloat' : 'String'}!`)
        .join(', ')}) {
        bridgeTransfers(first: 21, orderBy: SEQ_DESC, filter: { ${filter} }) { nodes { ${TRANSFER} } }
      }`,
      vars,
    );

  return new Map<string, () => HttpRequest>([
    [
      'status',
      () =>
        graphql(
          '{ _metadata { lastProcessedHeight targetHeight } chainTotal(id: "chain") { latestHeight latestBlockTime driftTotal } }',
        ),
    ],
    [
      'stats',
      () =>
        graphql(`{
          chainTotal(id: "chain") { txCount latestBlockTime }
          txDays(last: 7, orderBy: ID_ASC) { nodes { day count } }
          txes(first: 6, orderBy: SEQ_DESC) { nodes { ${TX} } }
        }`),
    ],
    [
      'blocks',
      () =>
        graphql(
          `query($below: Int!) { blocks(first: 21, orderBy: HEIGHT_DESC, filter: { height: { lessThan: $below } }) { nodes { ${BLOCK} } } }`,
          { below: randomInt(2, height) },
        ),
    ],
    [
      'block',
      () => {
        const h = randomInt(1, height);
        return graphql(
          `query($id: String!, $h: Int!) {
            block(id: $id) { ${BLOCK} events }
            txes(orderBy: TX_INDEX_ASC, filter: { height: { equalTo: $h } }) { nodes { ${TX} } }
          }`,
          { id: String(h), h },
        );
      },
    ],
    ['txs (first page)', () => txPage(21)],
    ['txs limit=100', () => txPage(101)],
    ['txs deep next', () => olderPage()],
    [
      'txs deep prev',
      () =>
        graphql(
          `query($above: BigFloat!) {
            txes(first: 21, orderBy: SEQ_ASC, filter: { seq: { greaterThan: $above } }) { nodes { ${TX} } }
            chainTotal(id: "chain") { txCount }
            methodCounts(orderBy: [COUNT_DESC, METHOD_ASC], filter: { count: { greaterThan: 0 } }) { nodes { method count } }
          }`,
          { above: seqOf(randomInt(1, height - 1), 0, -1).toString() },
        ),
    ],
    [
      'txs last page',
      () =>
        graphql(`{
          txes(first: ${lastPageSize}, orderBy: SEQ_ASC) { nodes { ${TX} } }
          chainTotal(id: "chain") { txCount }
          methodCounts(orderBy: [COUNT_DESC, METHOD_ASC], filter: { count: { greaterThan: 0 } }) { nodes { method count } }
        }`),
    ],
    ['txs method', () => olderPage(pick(sample.methods))],
    ['tx by hash', () => graphql(`query($id: String!) { tx(id: $id) { ${TX} } }`, { id: pick(sample.txHashes) })],
    ['assets', () => graphql(`{ assets(first: 21, orderBy: ID_ASC) { nodes { ${ASSET_SUMMARY} } } }`)],
    ['asset', () => asset(pick(sample.assets))],
    ['asset (big kind)', () => asset(bigKind.asset_id)],
    ['holders first page', () => holders()],
    ['holders deep', () => holders(pick(sample.holderKeys))],
    [
      'distributions',
      () =>
        graphql(
          `query($asset: String!, $below: BigFloat!) {
            asset(id: $asset) { status }
            distributions(first: 21, orderBy: SEQ_DESC, filter: { assetId: { equalTo: $asset }, seq: { lessThan: $below } }) { nodes { ${DISTRIBUTION} } }
          }`,
          { asset: pick(sample.assets), below: feedSeq() },
        ),
    ],
    ['asset events', () => feed(`asset:${pick(sample.assets)}`, feedSeq())],
    ['account (busy)', () => account(pick(sample.busyAccounts))],
    [
      'account attestations',
      () =>
        graphql(
          `query($a: String!) { attestations(orderBy: [TYPE_ASC, ATTESTER_ASC], filter: { subject: { equalTo: $a } }) { nodes { ${ATTESTATION} } } blocks(first: 1, orderBy: HEIGHT_DESC) { nodes { time } } }`,
          { a: pick(sample.busyAccounts) },
        ),
    ],
    ['account events', () => feed(`account:${pick(sample.busyAccounts)}`, feedSeq())],
    ['settlements', () => settlementsBelow('', {})],
    [
      'settlements pending',
      () =>
        graphql(
          `{ settlements(first: 21, orderBy: NUMBER_DESC, filter: { status: { equalTo: "STATUS_PENDING" } }) { nodes { ${SETTLEMENT} } } }`,
        ),
    ],
    [
      'settlements party',
      () =>
        settlementsBelow(', or: [{ proposer: { equalTo: $party } }, { counterparty: { equalTo: $party } }]', {
          party: sample.busyAccounts[0],
        }),
    ],
    [
      'settlement',
      () =>
        graphql(
          `query($id: String!) {
            settlement(id: $id) { ${SETTLEMENT} }
            settlementTimelineEntries(orderBy: SEQ_ASC, filter: { settlementId: { equalTo: $id } }) { nodes { ${TIMELINE} reason } }
          }`,
          { id: String(randomInt(1, sample.settlementMax)) },
        ),
    ],
    [
      'encumbrance',
      () =>
        graphql(
          `query($id: String!) {
            encumbrance(id: $id) { ${ENCUMBRANCE} }
            encumbranceTimelineEntries(orderBy: SEQ_ASC, filter: { encumbranceId: { equalTo: $id } }) { nodes { ${TIMELINE} actorRole units } }
          }`,
          { id: String(randomInt(1, sample.encumbranceMax)) },
        ),
    ],
    [
      'delegation',
      () =>
        graphql(`query($id: String!) { delegation(id: $id) { ${DELEGATION} } }`, {
          id: String(randomInt(1, sample.delegationMax)),
        }),
    ],
    ['bridge routes', () => graphql(`{ bridgeRoutes(orderBy: ID_ASC) { nodes { ${ROUTE} } } }`)],
    [
      'bridge route',
      () => graphql(`query($id: String!) { bridgeRoute(id: $id) { ${ROUTE} } }`, { id: pick(sample.routes) }),
    ],
    [
      'bridge transfers',
      () => transfers('seq: { lessThan: $below }', { below: seqOf(randomInt(2, height), -1, -1).toString() }),
    ],
    ['bridge transfers route', () => transfers('routeId: { equalTo: $route }', { route: pick(sample.routes) })],
  ]);
}
