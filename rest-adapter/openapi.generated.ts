// Generated from openapi.yaml by `npm run gen:api-types` (openapi-typescript). Do not edit:
// change openapi.yaml and run the script; tests/unit/api-contract.test.ts checks it is fresh.

export interface paths {
    "/openapi.yaml": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * This document
         * @description The OpenAPI 3.0.3 description of the read API, as YAML.
         */
        get: operations["getOpenApi"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Indexer progress and health
         * @description Indexed height against the chain height, wall-clock lag of the latest indexed block and the number of recorded disagreements (drift); as an extension (x-extensions proof-of-indexing), the proof of indexing at the indexed height.
         */
        get: operations["getStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Chain statistics for the explorer home page
         * @description `tx_count` counts every committed transaction, failed ones included. `latest_txs` are the `limit` newest transactions, newest first, whatever their age. `tx_daily` is exactly 14 UTC days ending on the day of the latest indexed block, oldest first, zero-filled.
         */
        get: operations["getStats"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/blocks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Blocks, newest first
         * @description Indexed blocks, newest first, keyset-paged on height descending; `next_cursor` leads to older blocks and is null on the page holding block 1.
         */
        get: operations["listBlocks"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/blocks/{height}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One block with its transactions and block-level events
         * @description `txs` are the block's transactions by tx_index ascending (failed ones included); `events` are its block-level events (BeginBlock then EndBlock, by event_index ascending; each has `mode`). A height above the indexed height, or 0, gives 404. As an extension (x-extensions proof-of-indexing), `proof` is the proof of indexing of the height.
         */
        get: operations["getBlock"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/txs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Transactions, newest first
         * @description Every transaction on chain, failed ones included, newest first, keyset-paged on (height, tx_index) descending; never a block window. `method` keeps the transactions whose first message has that type URL; `total` counts the matches. `methods` is the whole-chain facet per first-message type URL, regardless of the filter, most frequent first (ties by method ascending). `next_cursor` goes to older pages (null on the oldest), `prev_cursor` to newer ones (null on the newest), `last_cursor` to the oldest page, which holds total mod limit transactions (a full page when the division is exact); `last_cursor` is null when everything fits on one page. Pass any of them back as `cursor` with the same `method` and `limit`.
         */
        get: operations["listTxs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/txs/{hash}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One transaction
         * @description The transaction with its messages, events (decoded where typed) and, for a MsgEthereumTx, the EVM view. Accepts the consensus hash (64 hex, any case) or the `0x` eth hash of a MsgEthereumTx. A failed tx has `code` not 0, `codespace` and `raw_log`. An EVM revert keeps `code` 0 with `evm.status` 0 and `revert_reason`.
         */
        get: operations["getTx"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/assets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Assets, ordered by id
         * @description Every asset, keyset-paged on id ascending.
         */
        get: operations["listAssets"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/assets/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One asset with its kinds, accruals and latest invariant check */
        get: operations["getAsset"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/assets/{id}/graph": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Rights graph of an asset
         * @description Per kind (by kind_id), the top 100 holders by units descending (then holder ascending) with their encumbered units and locks.
         */
        get: operations["getAssetGraph"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/assets/{id}/kinds/{kind}/holders": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Holders of one kind
         * @description Holders with units > 0, ordered by units descending then holder ascending (keyset on (units, holder)). An unknown kind of an existing asset gives 404. With `height` (see the parameter): the holders of record at that height, exactly as this path answered when the index stood there (same order, same paging), plus `height`; an asset created after it gives 404.
         */
        get: operations["listHolders"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/assets/{id}/distributions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Income distributions of an asset
         * @description Every EventDistributed of the asset, newest first, keyset on (height, tx_index, event_index) descending.
         */
        get: operations["listDistributions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/assets/{id}/liquidation": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Waterfall, liquidation record and redemption pools of an asset
         * @description An asset without a waterfall answers `waterfall: []`, `liquidation: null`, `redemption_pools: []`.
         */
        get: operations["getAssetLiquidation"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/assets/{id}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Activity feed of an asset
         * @description Every typed event whose derivation rule declares the asset a subject (see proto/README.md), newest first, keyset on (height, tx_index, event_index) descending; block-level events have tx_index -1 and tx_hash null. Body (a design choice, the product specification leaves it open): `{asset_id, events, next_cursor}`.
         */
        get: operations["listAssetEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/accounts/{addr}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One account
         * @description Positions grouped by asset, locks, pending settlements (as either party), attestations (as subject), claimable income, delegations and voting power. Any well-formed address answers 200 (collections empty for an account the chain never saw). `address` is the canonical bech32 whichever form the request used.
         */
        get: operations["getAccount"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/accounts/{addr}/attestations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Attestations held by an account
         * @description Every attestation whose subject is the account, ordered by type then attester; `live` is computed against `latest_block_time`.
         */
        get: operations["getAccountAttestations"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/accounts/{addr}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Activity feed of an account
         * @description Every typed event whose derivation rule declares the account a subject, newest first, keyset on (height, tx_index, event_index) descending. Body (a design choice): `{address, events, next_cursor}`.
         */
        get: operations["listAccountEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/attesters/{addr}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Aggregates of an attester
         * @description Per credential type (ordered by type) the counts of attestations the account gave; no subjects are listed. Any well-formed address answers 200 (`types: []` when it never attested).
         */
        get: operations["getAttester"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/settlements": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Settlements, newest first
         * @description Settlements ordered by id descending (keyset on id), optionally of one party (proposer or counterparty) and one status. Items carry no `timeline`.
         */
        get: operations["listSettlements"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/settlements/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One settlement with legs and timeline
         * @description The settlement, always with `timeline` (oldest first: proposed, then settled, cancelled or expired).
         */
        get: operations["getSettlement"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/encumbrances/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One encumbrance with its timeline
         * @description The encumbrance and its timeline, oldest first (created, then at most one of released, exercised, expired).
         */
        get: operations["getEncumbrance"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/delegations/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One delegation */
        get: operations["getDelegation"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/bridge/routes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Bridge route registry
         * @description Every route ordered by route_id, with counters, outstanding, window usage, swept escrow income and the latest I8 reconciliation. Not paged (no `next_cursor`).
         */
        get: operations["listBridgeRoutes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/bridge/routes/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One bridge route */
        get: operations["getBridgeRoute"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/bridge/transfers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Bridge transfers, newest first
         * @description Outbound transfers (direction out, status in_flight), inbound ones (direction in, status completed) and rejected attempts (failed MsgBridgeOut txs in codespace bridge; direction out, status rejected), newest first, keyset on (height, tx_index, event_index) descending. Filters combine with AND.
         */
        get: operations["listBridgeTransfers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/lookup/{q}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Resolve a free-form search string
         * @description Dispatch on the shape of `q` (deterministic order):
         *
         *     | shape of q | candidates |
         *     |---|---|
         *     | 64 hex characters | the asset (if it exists), then the tx (if it exists) |
         *     | bech32 address | one account candidate with `known` and `evm_address` |
         *     | `0x` + 40 hex | the asset whose right-token (`kind_id`) or bundle-token (`bundle`) precompile lives there; otherwise the account of that key, resolved to bech32 |
         *     | `0x` + 64 hex | the tx with that eth hash (`id` is its consensus hash) |
         *     | non-negative integer | block when at most the indexed height; then settlement and encumbrance when they exist |
         *
         *     An unrecognised shape (including a wrong EIP-55 checksum) gives 404. A recognised
         *     shape with nothing behind it gives 200 with empty `candidates`. Lookup never
         *     answers 400.
         */
        get: operations["lookup"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/invariants": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Latest reconciliation results
         * @description `checks`: the latest supply/holder-count check per (asset, kind), ordered by asset_id then kind_id. `svc20_registry`: the token-registry reconciliation rows (per asset: kind rows by kind_id, then the bundle row). `asset` narrows both to one asset (an asset with no rows gives empty lists). Not paged. The reconciler writes these rows beside the node: a pass at start and every RECONCILE_EVERY_BLOCKS indexed blocks (default 100, at most once per RECONCILE_MIN_INTERVAL_MS), with the store and the chain read at the same height (docs/indexer.md, "Reconciler"); both lists are empty before its first pass.
         */
        get: operations["listInvariants"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Live push of new blocks, txs and activity (Server-Sent Events)
         * @description A `text/event-stream` (Server-Sent Events) that never ends by itself. Filters, event kinds, order, resume rule and limits: `x-design-choices` stream-filters, stream-order-and-resume and stream-limits. Every event has `id:` (an opaque cursor), `event:` (block, tx, activity or close) and one `data:` line of JSON: `block` a `Block`, `tx` a `Tx`, `activity` an `ActivityEvent`, `close` a `StreamClose` (the last event of a stream the server ends; it has no id). Lines starting with `:` are heartbeats. Every refusal (400, 410, 429, 503) is a JSON `Error` answered before any stream byte. Example: `curl -N 'http://localhost:3000/v1/stream?account=svc1…'`.
         */
        get: operations["streamEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @description The block height the answer is for: present only when the request gave `height` (the Height parameter); the head answer has no such field. */
        AnsweredHeight: number;
        /**
         * @description Arbitrary-precision non-negative integer as a decimal string (base units).
         * @example 1500000
         */
        Amount: string;
        /** @description Arbitrary-precision integer as a decimal string; may be negative. */
        SignedDecimal: string;
        /** @description Non-negative decimal integer string scaled by 10^18 (accrual index arithmetic). */
        ScaledDecimal: string;
        /**
         * @description Asset id: 64 lower-case hex characters, SHA-256 of (`svc/asset/v1` ‖ issuer ‖ uint64_be(n)).
         * @example 8e3dd2ea9ff3da70862a52621f7c1dc81c2b184cb886a324a3f430ec11efd3f2
         */
        AssetId: string;
        /** @description An asset id, or the empty string where no asset applies (coin bridge routes). */
        AssetIdOrEmpty: string;
        /**
         * @description Account address in canonical lower-case bech32 with the chain prefix (`<hrp>1…`), 20-byte key accounts or 32-byte module accounts.
         * @example svc190vqdjtlpcq27xslcveglfmr4ynfwg7g48tu4p
         */
        Bech32Address: string;
        /** @description A canonical bech32 account address, or the empty string when unset. */
        Bech32AddressOrEmpty: string;
        /**
         * @description EIP-55 checksummed `0x` address (20 bytes).
         * @example 0x2bd806c97F0e00aF1a1fC3328fA763a9269723C8
         */
        EvmAddress: string;
        /** @description An EIP-55 `0x` address, or the empty string. */
        EvmAddressOrEmpty: string;
        /**
         * @description Consensus (CometBFT) tx hash, 64 upper-case hex characters.
         * @example 709B55BD3DA0F5A838125BD0EE20C5BFDD7CABA173912D4281CAE816B79A201B
         */
        TxHash: string;
        /** @description Eth tx hash, keccak256 of the signed RLP, `0x` + 64 lower-case hex. */
        EthHash: string;
        /** @description Block hash, 64 upper-case hex characters (CometBFT form). */
        BlockHash: string;
        /** @description Lower-case hex bytes; the empty string when unset. */
        HexOrEmpty: string;
        /**
         * Format: date-time
         * @description RFC 3339 in UTC with `Z`. Seconds precision; a fractional part only when the chain time has one, with 3, 6 or 9 digits (protobuf JSON mapping of google.protobuf.Timestamp).
         * @example 2025-03-01T12:00:05Z
         */
        Timestamp: string;
        /**
         * Format: date-time
         * @description A Timestamp (RFC 3339, UTC, `Z`), or null.
         */
        NullableTimestamp: string | null;
        /**
         * Format: int64
         * @description Block height.
         */
        Height: number;
        /**
         * Format: int64
         * @description Kind id, the kind's 0-based position in the asset's kind list (uint32).
         */
        KindId: number;
        /** Format: int64 */
        Count: number;
        /**
         * @description Cosmos coin denom.
         * @example uusdc
         */
        Denom: string;
        /** @description Opaque cursor of the next (older, or for ascending lists the following) page; null when there is no further page. Always present. */
        NextCursor: string | null;
        /**
         * @description JSON null (used as `oneOf: [X, JsonNull]` for nullable object references).
         * @enum {string|null}
         */
        JsonNull: null;
        /** @description A coin amount. */
        Coin: {
            denom: components["schemas"]["Denom"];
            amount: components["schemas"]["Amount"];
        };
        /** @description Body of every error response. */
        Error: {
            /** @description Human-readable message. */
            error: string;
            /**
             * @description bad_request (HTTP 400), unauthorized (401, an API key that is not configured), not_found (404), method_not_allowed (405, with `Allow: GET`), cursor_expired (410, /v1/stream), too_many_requests (429, with `Retry-After`: over the client's budget, or too many open streams), internal (500), unavailable (503, with `Retry-After`: a missed deadline or an overloaded server).
             * @enum {string}
             */
            code: "bad_request" | "unauthorized" | "not_found" | "method_not_allowed" | "cursor_expired" | "too_many_requests" | "internal" | "unavailable";
        };
        /** @description The data of the final `close` event of a stream the server ends. slow_client: the client did not read fast enough; shutting_down: the server stops; unavailable: the store could not be read; resync: the store was rewound (reindexed), re-read from the list endpoints. After slow_client, shutting_down and unavailable, reconnect with the last event id. */
        StreamClose: {
            error: string;
            /** @enum {string} */
            code: "slow_client" | "shutting_down" | "unavailable" | "resync";
        };
        Status: {
            indexed_height: components["schemas"]["Height"];
            chain_height: components["schemas"]["Height"];
            /**
             * Format: int64
             * @description chain_height - indexed_height, the serving index's lag. chain_height is the tip the indexer last saw, or under npm start the tip its watcher read (at most a second old), whichever is higher: while a reindex runs the serving index's node is stopped, and this is still the lag behind the live chain.
             */
            lag_blocks: number;
            latest_block_time: components["schemas"]["Timestamp"];
            /**
             * Format: int64
             * @description Seconds between the indexer wall clock and latest_block_time.
             */
            wall_clock_lag_seconds: number;
            /**
             * Format: int64
             * @description Recorded disagreements: reconciliation rows with agree=false (InvariantCheck, and evaluated Svc20Check and I8Check rows) plus event post-value drifts. It is a record, never decremented: a disagreement a later check clears still counts, and a disagreement that persists counts once per pass that found it.
             */
            drift_total: number;
            /** @description Extension (x-extensions proof-of-indexing): the proof of indexing at indexed_height; null before the first block or where the store keeps no proof. */
            proof: components["schemas"]["Proof"] | components["schemas"]["JsonNull"];
            reindex?: components["schemas"]["StatusReindex"];
        };
        /** @description Present only while npm start reindexes a changed project beside the serving index (docs/running.md, "After a project change"): every other field describes the serving index, which no longer moves; this one how far the new index is. /ready answers 503 until the switch. */
        StatusReindex: {
            /** @description The schema answering now (frozen). */
            serving: string;
            /** @description The schema the changed project is indexed into; it serves after the switch. */
            into: string;
            /**
             * Format: int64
             * @description The new index's height; null before its first block.
             */
            indexed_height: number | null;
            /** Format: int64 */
            chain_height: number | null;
            /**
             * Format: int64
             * @description chain_height - indexed_height of the new index.
             */
            lag_blocks: number | null;
            /** @description The new index's rate over the last ten seconds. */
            blocks_per_s: number | null;
            /**
             * Format: int64
             * @description Expected seconds until the new index has caught up (lag_blocks / blocks_per_s); null while the rate is unknown.
             */
            eta_s: number | null;
        };
        /** @description Extension (x-extensions proof-of-indexing): the proof of indexing of one height, as the indexer keeps it (entity BlockProof, also in GraphQL as `blockProofs`). `hash` = sha256 over the height, `block_hash`, `entities_root` and `previous`; `entities_root` = sha256 over `roots`; each root = sha256 over the leaves of the rows of that entity type the height wrote, by id. Covers every row the block wrote in the indexer's entity tables; not `_metadata`, the reconciler's check rows, the app services' tables, or later changes made to the store by anything but the indexer. */
        Proof: {
            height: components["schemas"]["Height"];
            hash: components["schemas"]["ProofHash"];
            /** @description The proof of height - 1; null where the store has none (the first height it proved). */
            previous: string | null;
            /** @description The chain's block hash as hashed (CometBFT form, upper-case hex). */
            block_hash: string;
            entities_root: components["schemas"]["ProofHash"];
            /** @description Root of each entity type (schema.graphql name) the height wrote rows of, by type name; a type the height wrote nothing of is absent. */
            roots: {
                [key: string]: components["schemas"]["ProofHash"];
            };
        };
        /** @description A sha256 hash of the proof of indexing, 64 lower-case hex characters. */
        ProofHash: string;
        Stats: {
            indexed_height: components["schemas"]["Height"];
            /**
             * Format: int64
             * @description Every committed tx, failed ones included.
             */
            tx_count: number;
            /** @description The `limit` newest txs (default 6), newest first, whatever their age. */
            latest_txs: components["schemas"]["Tx"][];
            /** @description Exactly 14 UTC days ending on the day of the latest indexed block, oldest first, zero-filled. */
            tx_daily: components["schemas"]["TxDay"][];
        };
        TxDay: {
            /**
             * Format: date
             * @description UTC day, YYYY-MM-DD.
             */
            day: string;
            count: components["schemas"]["Count"];
        };
        MethodCount: {
            /** @description Type URL of a tx's first message, e.g. `/svc.rights.v1.MsgTransfer`. */
            method: string;
            count: components["schemas"]["Count"];
        };
        Block: {
            height: components["schemas"]["Height"];
            hash: components["schemas"]["BlockHash"];
            time: components["schemas"]["Timestamp"];
            /** @description CometBFT proposer address, 40 upper-case hex characters. */
            proposer: string;
            tx_count: components["schemas"]["Count"];
            /**
             * Format: int64
             * @description Block-level events plus the events of its txs.
             */
            event_count: number;
        };
        BlockPage: {
            /** @description Newest first. */
            blocks: components["schemas"]["Block"][];
            next_cursor: components["schemas"]["NextCursor"];
        };
        BlockDetail: {
            block: components["schemas"]["Block"];
            /** @description The block's txs by tx_index ascending, failed ones included. */
            txs: components["schemas"]["Tx"][];
            /** @description Block-level events (BeginBlock then EndBlock), by event_index ascending; each has `mode`. */
            events: components["schemas"]["Event"][];
            /** @description Extension (x-extensions proof-of-indexing): the proof of indexing of this height; null where the store keeps none. */
            proof: components["schemas"]["Proof"] | components["schemas"]["JsonNull"];
        };
        /** @description One raw ABCI attribute, exactly as emitted (typed-event values are JSON text). */
        EventAttribute: {
            key: string;
            value: string;
        };
        Event: {
            /**
             * Format: int64
             * @description 0-based index among the tx's events (or among the block-level events).
             */
            event_index: number;
            /** @description Event type; the full proto name for typed events (`svc.asset.v1.EventAssetCreated`). */
            type: string;
            /**
             * Format: int64
             * @description Index of the emitting message; null for block-level events and tx events not emitted by a message (fees, ante handler).
             */
            msg_index: number | null;
            /**
             * @description Block-level events only; absent on tx events.
             * @enum {string}
             */
            mode?: "BeginBlock" | "EndBlock";
            /** @description Raw key/value attributes in emitted order (bookkeeping `msg_index`/`mode` included). */
            attributes: components["schemas"]["EventAttribute"][];
            /** @description Proto-JSON of the typed event (defaults included); null for other events. */
            decoded: {
                [key: string]: unknown;
            } | null;
            /** @description Derived into state (a typed event of a successful tx, or a block-level event). */
            applied: boolean;
        };
        /** @description Open object. Amount moved by the call, in the gas denom: `{denom, amount}`. */
        EvmValue: {
            denom?: components["schemas"]["Denom"];
            amount?: components["schemas"]["Amount"];
        };
        /** @description EVM view of a MsgEthereumTx. The consensus tx succeeds (code 0) even when EVM execution reverts, so `status` is the EVM outcome. */
        EVMTx: {
            eth_hash: components["schemas"]["EthHash"];
            from: components["schemas"]["EvmAddress"];
            /** @description EIP-55 recipient; null for contract creation. */
            to: string | null;
            value: components["schemas"]["EvmValue"];
            gas_used: components["schemas"]["Count"];
            /**
             * @description 1 success; 0 reverted or failed.
             * @enum {integer}
             */
            status: 0 | 1;
            /** @description ABI-decoded Error(string) of a revert (stable `svc: …` strings for the token precompiles; a policy denial carries the rule path) or the VM error; null on success. */
            revert_reason: string | null;
        };
        /** @description Proto-JSON of one message, with its `@type` type URL. */
        TxMsg: {
            "@type": string;
        } & {
            [key: string]: unknown;
        };
        Tx: {
            hash: components["schemas"]["TxHash"];
            height: components["schemas"]["Height"];
            /**
             * Format: int64
             * @description Position of the tx in its block.
             */
            tx_index: number;
            /**
             * Format: int64
             * @description 0 = success.
             */
            code: number;
            /** @description Error codespace of a failed tx; '' on success. */
            codespace: string;
            /** @description Present only when code != 0. */
            raw_log?: string;
            gas_wanted: components["schemas"]["Count"];
            gas_used: components["schemas"]["Count"];
            msgs: components["schemas"]["TxMsg"][];
            /** @description Fee coins; empty for a fee-less tx; the gas token is the gas denom. */
            fee: components["schemas"]["Coin"][];
            block_time: components["schemas"]["Timestamp"];
            /** @description EVMTx for a MsgEthereumTx; null otherwise. */
            evm: components["schemas"]["EVMTx"] | components["schemas"]["JsonNull"];
            /** @description The tx's events by event_index ascending. */
            events: components["schemas"]["Event"][];
        };
        TxPage: {
            /** @description Newest first, keyset (height, tx_index) descending. */
            txs: components["schemas"]["Tx"][];
            /**
             * Format: int64
             * @description Transactions matching the filter (all pages).
             */
            total: number;
            /** @description Next (older) page; null on the oldest. */
            next_cursor: string | null;
            /** @description Previous (newer) page; null on the newest. */
            prev_cursor: string | null;
            /** @description Oldest page, holding total mod limit txs (a full page when exact); null when everything fits one page. */
            last_cursor: string | null;
            /** @description Per first-message type URL over the whole chain (regardless of the filter), most frequent first, ties by method ascending. */
            methods: components["schemas"]["MethodCount"][];
        };
        /**
         * @description Created ACTIVE; LIQUIDATING when a liquidation starts; LIQUIDATED (final) once every tier's units are redeemed.
         * @enum {string}
         */
        AssetStatus: "ASSET_STATUS_ACTIVE" | "ASSET_STATUS_LIQUIDATING" | "ASSET_STATUS_LIQUIDATED";
        /**
         * @description Kind class, the proto enum name without its `KIND_CLASS_` prefix.
         * @enum {string}
         */
        KindClass: "ECONOMIC" | "INCOME" | "VOTE" | "REDEMPTION";
        /** @description Open object (design choice): transfer policy of an asset or the override of one kind, `{transfer, attestation_type, attester, allowlist}`. */
        Policy: {
            /**
             * @description OPEN anyone may receive; ATTESTED the recipient needs a live attestation of `attestation_type` (from `attester` when set); RESTRICTED only the issuer and the `allowlist` may receive.
             * @enum {string}
             */
            transfer?: "TRANSFER_MODE_OPEN" | "TRANSFER_MODE_ATTESTED" | "TRANSFER_MODE_RESTRICTED";
            /** @description Empty string unless ATTESTED. */
            attestation_type?: string;
            attester?: components["schemas"]["Bech32AddressOrEmpty"];
            allowlist?: components["schemas"]["Bech32Address"][];
        };
        /** @description Open object (design choice): `{operator, releaser}`, each bech32 or '' when unassigned. */
        Roles: {
            operator?: components["schemas"]["Bech32AddressOrEmpty"];
            releaser?: components["schemas"]["Bech32AddressOrEmpty"];
        };
        /** @description Open object (design choice): `{start, end, label}` of a kind's term, e.g. one coupon date of a bond's INCOME kind. */
        Term: {
            start?: components["schemas"]["NullableTimestamp"];
            end?: components["schemas"]["NullableTimestamp"];
            label?: string;
        };
        /** @description Open object (design choice): `{raw, multiplier, effective}`, effective = raw × multiplier. */
        EffectiveSupply: {
            raw?: components["schemas"]["Amount"];
            /** Format: int64 */
            multiplier?: number;
            effective?: components["schemas"]["Amount"];
        };
        AssetSummary: {
            id: components["schemas"]["AssetId"];
            issuer: components["schemas"]["Bech32Address"];
            status: components["schemas"]["AssetStatus"];
            kind_count: components["schemas"]["Count"];
            /** @description Issuer ended issuance irreversibly (MsgLockIssuance); redeem and transfers unaffected. */
            issuance_locked: boolean;
            /** @description Hex of the off-chain document hash (SHA-256); '' when none. */
            meta_hash: string;
            created_height: components["schemas"]["Height"];
            created_at: components["schemas"]["Timestamp"];
        };
        AssetPage: {
            /** @description Ordered by id ascending. */
            assets: components["schemas"]["AssetSummary"][];
            next_cursor: components["schemas"]["NextCursor"];
        };
        /** @description Open object (design choice): `{height, agree, checks}`, the latest check of each kind of the asset; agree = every kind agrees. */
        LatestInvariantCheck: {
            height?: components["schemas"]["Height"];
            agree?: boolean;
            checks?: components["schemas"]["InvariantCheck"][];
        };
        Asset: {
            id: components["schemas"]["AssetId"];
            issuer: components["schemas"]["Bech32Address"];
            status: components["schemas"]["AssetStatus"];
            policy: components["schemas"]["Policy"];
            roles: components["schemas"]["Roles"];
            /** @description Hex of the off-chain document hash; '' when unset. */
            meta_hash: string;
            settlement_denom: components["schemas"]["Denom"];
            /**
             * Format: int64
             * @description n of the asset id derivation (assets the issuer had created before).
             */
            nonce: number;
            kind_count: components["schemas"]["Count"];
            issuance_locked: boolean;
            /** @description The operator role may create liens. */
            liens_allowed: boolean;
            /** @description Allowlist of distribution denoms. */
            distribution_denoms: components["schemas"]["Denom"][];
            /** @description One per (kind, denom), ordered by kind_id then denom. */
            accruals: components["schemas"]["Accrual"][];
            created_height: components["schemas"]["Height"];
            created_tx_hash: components["schemas"]["TxHash"];
            created_at: components["schemas"]["Timestamp"];
            updated_height: components["schemas"]["Height"];
            /** @description Ordered by kind_id. */
            kinds: components["schemas"]["Kind"][];
            /** @description LatestInvariantCheck, or null before the first check. */
            latest_invariant_check: components["schemas"]["LatestInvariantCheck"] | components["schemas"]["JsonNull"];
            bundle_address: components["schemas"]["EvmAddress"];
        };
        AssetResponse: {
            asset: components["schemas"]["Asset"];
        };
        Kind: {
            kind_id: components["schemas"]["KindId"];
            class: components["schemas"]["KindClass"];
            /** @description Presentation decimals of the units (6 in the flows given). */
            decimals: number;
            /** @description Part of the whole-share bundle. */
            bundle: boolean;
            transferable: boolean;
            /** @description Term, or null for a kind without one. */
            term: components["schemas"]["Term"] | components["schemas"]["JsonNull"];
            /** @description Policy replacing the asset policy for this kind, or null. */
            policy_override: components["schemas"]["Policy"] | components["schemas"]["JsonNull"];
            effective_policy: components["schemas"]["Policy"];
            /**
             * @description Where effective_policy comes from.
             * @enum {string}
             */
            policy_source: "ASSET" | "KIND_OVERRIDE";
            /**
             * Format: int64
             * @description Split presentation multiplier; 1 = none; raw state never changes.
             */
            multiplier: number;
            supply: components["schemas"]["Amount"];
            effective_supply: components["schemas"]["EffectiveSupply"];
            holder_count: components["schemas"]["Count"];
            /** @description The issuer allows units of this kind over a RIGHT_OUT bridge route (the route also needs an OPEN effective policy). */
            bridgeable: boolean;
            svc20_address: components["schemas"]["EvmAddress"];
        };
        Lock: {
            /** @description Owner of the lock, `encumbrance/<id>`, `settlement/<id>` or `delegation/<id>`. */
            ref: string;
            units: components["schemas"]["Amount"];
        };
        Holder: {
            holder: components["schemas"]["Bech32Address"];
            units: components["schemas"]["Amount"];
            /** @description Sum of all the position's locks (encumbrance, settlement escrow, delegation), the chain's `locked`; transferable units = units - encumbered. */
            encumbered: components["schemas"]["Amount"];
            /** @description Ordered by ref. */
            locks: components["schemas"]["Lock"][];
            /** @description Typed breakdown of the ACTIVE encumbrances behind the `encumbrance/` locks, by id. */
            encumbrances: components["schemas"]["PositionEncumbrance"][];
        };
        HolderPage: {
            asset_id: components["schemas"]["AssetId"];
            kind_id: components["schemas"]["KindId"];
            height?: components["schemas"]["AnsweredHeight"];
            /** @description Units descending, then holder ascending. */
            holders: components["schemas"]["Holder"][];
            next_cursor: components["schemas"]["NextCursor"];
        };
        /** @description Open object (design choice): `{holder, units, encumbered, locks}`. */
        GraphHolder: {
            holder?: components["schemas"]["Bech32Address"];
            units?: components["schemas"]["Amount"];
            encumbered?: components["schemas"]["Amount"];
            locks?: components["schemas"]["Lock"][];
        };
        /** @description Open object (design choice): `{kind_id, class, supply, holder_count, holders}`; holders are the top 100 by units. */
        GraphKind: {
            kind_id?: components["schemas"]["KindId"];
            class?: components["schemas"]["KindClass"];
            supply?: components["schemas"]["Amount"];
            holder_count?: components["schemas"]["Count"];
            /** @description Top 100 by units descending, then holder ascending. */
            holders?: components["schemas"]["GraphHolder"][];
        };
        AssetGraph: {
            asset_id: components["schemas"]["AssetId"];
            status: components["schemas"]["AssetStatus"];
            /** @description Ordered by kind_id. */
            kinds: components["schemas"]["GraphKind"][];
        };
        Accrual: {
            kind_id: components["schemas"]["KindId"];
            denom: components["schemas"]["Denom"];
            index: components["schemas"]["ScaledDecimal"];
            carry_scaled: components["schemas"]["ScaledDecimal"];
            total_distributed: components["schemas"]["Amount"];
            total_paid: components["schemas"]["Amount"];
            distributions_count: components["schemas"]["Count"];
            module_held: components["schemas"]["Amount"];
            sum_claimable: components["schemas"]["Amount"];
            carry: components["schemas"]["Amount"];
            residue: components["schemas"]["SignedDecimal"];
            updated_height: components["schemas"]["Height"];
        };
        Distribution: {
            height: components["schemas"]["Height"];
            /** Format: int64 */
            tx_index: number;
            /** Format: int64 */
            event_index: number;
            kind_id: components["schemas"]["KindId"];
            denom: components["schemas"]["Denom"];
            payer: components["schemas"]["Bech32Address"];
            amount: components["schemas"]["Amount"];
            supply: components["schemas"]["Amount"];
            new_index: components["schemas"]["ScaledDecimal"];
            carry_scaled: components["schemas"]["ScaledDecimal"];
            tx_hash: components["schemas"]["TxHash"];
            block_time: components["schemas"]["Timestamp"];
        };
        DistributionPage: {
            asset_id: components["schemas"]["AssetId"];
            /** @description Newest first. */
            distributions: components["schemas"]["Distribution"][];
            next_cursor: components["schemas"]["NextCursor"];
        };
        /** @description Open object (design choice): `{rank, kind_id, claim_per_unit, owed, paid, cumulative_paid}`; owed/paid/cumulative_paid are "0" before a liquidation. */
        WaterfallTier: {
            rank?: number;
            kind_id?: components["schemas"]["KindId"];
            claim_per_unit?: components["schemas"]["Amount"];
            owed?: components["schemas"]["Amount"];
            paid?: components["schemas"]["Amount"];
            cumulative_paid?: components["schemas"]["Amount"];
        };
        /** @description Open object (design choice): `{status, denom, proceeds, surplus, started_height, started_at, completed_height}`. */
        Liquidation: {
            /** @enum {string} */
            status?: "started" | "completed";
            denom?: components["schemas"]["Denom"];
            proceeds?: components["schemas"]["Amount"];
            surplus?: components["schemas"]["Amount"];
            started_height?: components["schemas"]["Height"];
            started_at?: components["schemas"]["Timestamp"];
            /** Format: int64 */
            completed_height?: number | null;
        };
        /** @description Open object (design choice): `{kind_id, denom, amount, units_outstanding}`; payout = amount × units / units_outstanding (floor). */
        RedemptionPool: {
            kind_id?: components["schemas"]["KindId"];
            denom?: components["schemas"]["Denom"];
            amount?: components["schemas"]["Amount"];
            units_outstanding?: components["schemas"]["Amount"];
        };
        AssetLiquidation: {
            asset_id: components["schemas"]["AssetId"];
            status: components["schemas"]["AssetStatus"];
            /** @description Tiers by rank with cumulative paid. */
            waterfall: components["schemas"]["WaterfallTier"][];
            /** @description The liquidation record, or null when none started. */
            liquidation: components["schemas"]["Liquidation"] | components["schemas"]["JsonNull"];
            /** @description By kind_id then denom. */
            redemption_pools: components["schemas"]["RedemptionPool"][];
        };
        ActivityEvent: {
            height: components["schemas"]["Height"];
            /**
             * Format: int64
             * @description -1 for block-level events.
             */
            tx_index: number;
            /** Format: int64 */
            event_index: number;
            /** @description Consensus hash; null for block-level events. */
            tx_hash: string | null;
            block_time: components["schemas"]["Timestamp"];
            /** @description Full proto name of the typed event. */
            type: string;
            /**
             * @description Block-level events only.
             * @enum {string}
             */
            mode?: "BeginBlock" | "EndBlock";
            /** @description Proto-JSON of the typed event. */
            decoded: {
                [key: string]: unknown;
            };
        };
        /** @description Design choice (the product specification leaves the body open). */
        AssetActivityPage: {
            asset_id: components["schemas"]["AssetId"];
            /** @description Newest first. */
            events: components["schemas"]["ActivityEvent"][];
            next_cursor: components["schemas"]["NextCursor"];
        };
        /** @description Design choice (the product specification leaves the body open). */
        AccountActivityPage: {
            address: components["schemas"]["Bech32Address"];
            /** @description Newest first. */
            events: components["schemas"]["ActivityEvent"][];
            next_cursor: components["schemas"]["NextCursor"];
        };
        /** @enum {string} */
        EncumbranceKind: "pledge" | "lien" | "lockup";
        /** @enum {string} */
        EncumbranceStatus: "active" | "released" | "exercised" | "expired";
        PositionEncumbrance: {
            /** Format: int64 */
            id: number;
            kind: components["schemas"]["EncumbranceKind"];
            beneficiary: components["schemas"]["Bech32AddressOrEmpty"];
            units: components["schemas"]["Amount"];
            status: components["schemas"]["EncumbranceStatus"];
            expiry: components["schemas"]["NullableTimestamp"];
            holder_release_after: components["schemas"]["NullableTimestamp"];
        };
        Encumbrance: {
            /** Format: int64 */
            id: number;
            kind: components["schemas"]["EncumbranceKind"];
            asset_id: components["schemas"]["AssetId"];
            kind_id: components["schemas"]["KindId"];
            holder: components["schemas"]["Bech32Address"];
            units: components["schemas"]["Amount"];
            beneficiary: components["schemas"]["Bech32AddressOrEmpty"];
            /** @description The pledge routes its units' income to the beneficiary while active. */
            income_to_beneficiary: boolean;
            holder_release_after: components["schemas"]["NullableTimestamp"];
            exercisable: boolean;
            expiry: components["schemas"]["NullableTimestamp"];
            evidence_hash: components["schemas"]["HexOrEmpty"];
            status: components["schemas"]["EncumbranceStatus"];
            created_height: components["schemas"]["Height"];
            created_tx_hash: components["schemas"]["TxHash"];
            created_at: components["schemas"]["Timestamp"];
            /**
             * Format: int64
             * @description Height it was released, exercised or expired; null while active.
             */
            resolved_height: number | null;
            updated_height: components["schemas"]["Height"];
        };
        /** @description Open object (design choice): `{units}` moved or locked by the timeline entry. */
        TimelineUnits: {
            units?: components["schemas"]["Amount"];
        };
        EncumbranceTimelineEntry: {
            /** @enum {string} */
            event: "created" | "released" | "exercised" | "expired";
            height: components["schemas"]["Height"];
            block_time: components["schemas"]["Timestamp"];
            /** @description Null for the end-of-block sweep. */
            tx_hash: string | null;
            /** @description Account that acted; null for the end-of-block sweep. */
            actor: string | null;
            /**
             * @description protocol for the end-of-block expiry.
             * @enum {string|null}
             */
            actor_role: "holder" | "operator" | "issuer" | "releaser" | "beneficiary" | "protocol" | null;
            /** @description TimelineUnits, or null when the entry moves no units. */
            units: components["schemas"]["TimelineUnits"] | components["schemas"]["JsonNull"];
        };
        EncumbranceResponse: {
            encumbrance: components["schemas"]["Encumbrance"];
            /** @description Oldest first. */
            timeline: components["schemas"]["EncumbranceTimelineEntry"][];
        };
        RightAmount: {
            asset_id: components["schemas"]["AssetId"];
            kind_id: components["schemas"]["KindId"];
            units: components["schemas"]["Amount"];
        };
        /** @description Proto-JSON of svc.settlement.v1.Leg (defaults included): a direction, seen from the proposer, plus exactly one of `right` or `coin`. */
        Leg: {
            /** @enum {string} */
            direction: "LEG_DIRECTION_GIVE" | "LEG_DIRECTION_ASK";
            right?: components["schemas"]["RightAmount"];
            coin?: components["schemas"]["Coin"];
        } & (unknown | unknown);
        /** @description Open object (design choice): `{event, height, block_time, tx_hash, actor, reason}`. */
        SettlementTimelineItem: {
            /** @enum {string} */
            event?: "proposed" | "settled" | "cancelled" | "expired";
            height?: components["schemas"]["Height"];
            block_time?: components["schemas"]["Timestamp"];
            /** @description Null for the expiry sweep. */
            tx_hash?: string | null;
            /** @description Proposer, accepting counterparty or cancelling party (bech32); null for the expiry sweep and for a cancel by the waterfall module. */
            actor?: string | null;
            /** @description Cancel reason ('' or LIQUIDATION) on a cancelled entry; '' otherwise. */
            reason?: string;
        };
        Settlement: {
            /** Format: int64 */
            id: number;
            proposer: components["schemas"]["Bech32Address"];
            counterparty: components["schemas"]["Bech32Address"];
            legs: components["schemas"]["Leg"][];
            expiry: components["schemas"]["Timestamp"];
            /** @enum {string} */
            status: "STATUS_PENDING" | "STATUS_SETTLED" | "STATUS_CANCELLED" | "STATUS_EXPIRED";
            /**
             * @description '' for a party's cancel (and when not cancelled); LIQUIDATION when the waterfall module cancelled the PENDING settlement of a liquidating asset.
             * @enum {string}
             */
            cancel_reason: "" | "LIQUIDATION";
            memo_hash: components["schemas"]["HexOrEmpty"];
            created_height: components["schemas"]["Height"];
            created_tx_hash: components["schemas"]["TxHash"];
            created_at: components["schemas"]["Timestamp"];
            updated_height: components["schemas"]["Height"];
            /** @description Only on /v1/settlements/{id} (always there): oldest first, proposed then settled, cancelled or expired. Absent in lists. */
            timeline?: components["schemas"]["SettlementTimelineItem"][];
        };
        SettlementPage: {
            /** @description Id descending (newest first); no `timeline`. */
            settlements: components["schemas"]["Settlement"][];
            next_cursor: components["schemas"]["NextCursor"];
        };
        SettlementResponse: {
            settlement: components["schemas"]["Settlement"];
        };
        /** @description Open object (design choice): `{kind_id, class, units, encumbered, whole_units, locks}`; `whole_units` and `encumbered` are always present. */
        AccountPosition: {
            kind_id?: components["schemas"]["KindId"];
            class?: components["schemas"]["KindClass"];
            units?: components["schemas"]["Amount"];
            /** @description Sum of all the position's locks; transferable = units - encumbered. */
            encumbered: components["schemas"]["Amount"];
            /** @description units / 10^decimals of the kind as a decimal string, trailing fractional zeros trimmed ("12.5", "3"). */
            whole_units: string;
            locks?: components["schemas"]["Lock"][];
        };
        /** @description Open object (design choice): `{asset_id, positions}`; positions by kind_id, only positions with units > 0. */
        AccountAsset: {
            asset_id: components["schemas"]["AssetId"];
            positions: components["schemas"]["AccountPosition"][];
        };
        /** @description Open object (design choice): `{asset_id, kind_id, ref, units}`. */
        AccountLock: {
            asset_id?: components["schemas"]["AssetId"];
            kind_id?: components["schemas"]["KindId"];
            ref?: string;
            units?: components["schemas"]["Amount"];
        };
        ClaimableEntry: {
            routed_from: components["schemas"]["Bech32AddressOrEmpty"];
            /** @description Lock ref of the route (`encumbrance/<id>`); '' for the account's own accrual. */
            ref: string;
            asset_id: components["schemas"]["AssetId"];
            denom: components["schemas"]["Denom"];
            kind_id: components["schemas"]["KindId"];
            pending: components["schemas"]["Amount"];
            accrued: components["schemas"]["Amount"];
            total: components["schemas"]["Amount"];
        };
        Attestation: {
            type: string;
            attester: components["schemas"]["Bech32Address"];
            expiry: components["schemas"]["Timestamp"];
            revoked: boolean;
            evidence_hash: components["schemas"]["HexOrEmpty"];
            /** @description Not revoked and expiry later than latest_block_time. */
            live: boolean;
            updated_height: components["schemas"]["Height"];
        };
        Delegation: {
            /** Format: int64 */
            id: number;
            holder: components["schemas"]["Bech32Address"];
            asset_id: components["schemas"]["AssetId"];
            delegate: components["schemas"]["Bech32Address"];
            kind_id: components["schemas"]["KindId"];
            units: components["schemas"]["Amount"];
            until: components["schemas"]["Timestamp"];
            purposes: string[];
            revocable: boolean;
            /**
             * @description Empty string while active.
             * @enum {string}
             */
            ended: "" | "END_REASON_EXPIRED" | "END_REASON_REVOKED" | "END_REASON_RETURNED";
            created_height: components["schemas"]["Height"];
            created_tx_hash: components["schemas"]["TxHash"];
            /** Format: int64 */
            ended_height: number | null;
        };
        DelegationResponse: {
            delegation: components["schemas"]["Delegation"];
        };
        /** @description Open object (design choice): `{kind_id, own, delegated_out, delegated_in, total}` of one VOTE-class kind. */
        VotingPowerByKind: {
            kind_id?: components["schemas"]["KindId"];
            own?: components["schemas"]["Amount"];
            delegated_out?: components["schemas"]["Amount"];
            delegated_in?: components["schemas"]["Amount"];
            total?: components["schemas"]["Amount"];
        };
        /** @description Open object (design choice): `{total, by_kind}`; total = own - delegated_out + delegated_in over the asset's VOTE-class kinds. Informational; there is no vote module. */
        VotingPowerDetail: {
            total?: components["schemas"]["Amount"];
            by_kind?: components["schemas"]["VotingPowerByKind"][];
        };
        VotingPower: {
            asset_id: components["schemas"]["AssetId"];
            own: components["schemas"]["Amount"];
            delegated_out: components["schemas"]["Amount"];
            delegated_in: components["schemas"]["Amount"];
            voting_power: components["schemas"]["VotingPowerDetail"];
        };
        Account: {
            address: components["schemas"]["Bech32Address"];
            /** @description EIP-55 form of the same 20-byte key; null for 32-byte module accounts. */
            evm_address: string | null;
            /** @description Positions grouped by asset, by asset_id. */
            assets: components["schemas"]["AccountAsset"][];
            /** @description Every lock of the account, by asset_id, kind_id, ref. */
            locks: components["schemas"]["AccountLock"][];
            /** @description STATUS_PENDING settlements with the account as either party, id descending, no timeline. */
            pending_settlements: components["schemas"]["Settlement"][];
            /** @description Attestations whose subject is the account, by type then attester. */
            attestations: components["schemas"]["Attestation"][];
            /** @description Per (asset, kind, denom, routed_from), pending + accrued; by asset_id, kind_id, denom, routed_from. */
            claimable: components["schemas"]["ClaimableEntry"][];
            /** @description Active delegations (`ended` empty) with the account as holder or delegate, id descending (design choice account-delegations). */
            delegations: components["schemas"]["Delegation"][];
            /** @description One per asset with VOTE-class units owned or delegated to or by the account, by asset_id. */
            voting_power: components["schemas"]["VotingPower"][];
            latest_block_time: components["schemas"]["Timestamp"];
        };
        AccountAttestations: {
            address: components["schemas"]["Bech32Address"];
            /** @description By type then attester; live computed against latest_block_time. */
            attestations: components["schemas"]["Attestation"][];
            latest_block_time: components["schemas"]["Timestamp"];
        };
        /** @description Open object (design choice): `{type, active, revoked, expired, total}`; counts only, no subjects. active = live; expired = not revoked and expiry reached; total = active + revoked + expired = distinct subjects. */
        AttesterType: {
            type?: string;
            active?: components["schemas"]["Count"];
            revoked?: components["schemas"]["Count"];
            expired?: components["schemas"]["Count"];
            total?: components["schemas"]["Count"];
        };
        AttesterSummary: {
            attester: components["schemas"]["Bech32Address"];
            /** @description Per credential type, by type. */
            types: components["schemas"]["AttesterType"][];
            latest_block_time: components["schemas"]["Timestamp"];
        };
        /** @description Latest bridge reconciliation of a route (every field always present). */
        I8Check: {
            height: components["schemas"]["Height"];
            /** @description What the chain holds for the route (Query/EscrowBalance: the escrowed coins of a NATIVE_OUT route, the synthetic supply of a SYNTHETIC_IN route, the escrow's units of a RIGHT_OUT route); '' when not evaluated or the chain has no such route. */
            chain_actual: string;
            /** @description The indexer's `outstanding` for the route (negative only when the indexer has drifted, so it is shown rather than hidden); '' when not evaluated. */
            indexer_actual: string;
            /** @description The chain's holding equals the outstanding of the chain's own route counters (Query/Route). */
            chain_ok: boolean;
            /** @description False when the chain does not serve the query; never counted as drift. */
            evaluated: boolean;
            /** @description Evaluated, and indexer_actual equals chain_actual. */
            agree: boolean;
        };
        /** @description Open object (design choice): `{<denom>: Amount}`, sum of escrow-income-swept events per denom; {} before the first sweep. */
        IncomeSwept: {
            [key: string]: components["schemas"]["Amount"];
        };
        BridgeRoute: {
            route_id: string;
            /** Format: int64 */
            remote_domain: number;
            /** @description 0x bytes32 of the remote router. */
            remote_contract: string;
            /** @enum {string} */
            direction: "DIRECTION_NATIVE_OUT" | "DIRECTION_SYNTHETIC_IN" | "DIRECTION_RIGHT_OUT";
            /** @description Coin routes the local denom; '' for RIGHT_OUT. */
            local_denom: string;
            /** @enum {string} */
            status: "ROUTE_STATUS_ACTIVE" | "ROUTE_STATUS_PAUSED";
            window_seconds: components["schemas"]["Count"];
            outbound_limit: components["schemas"]["Amount"];
            inbound_limit: components["schemas"]["Amount"];
            warp_token_id: string;
            display: string;
            exponent: number;
            outbound: components["schemas"]["Amount"];
            inbound: components["schemas"]["Amount"];
            /** @description NATIVE_OUT and RIGHT_OUT outbound - inbound (expected escrow); SYNTHETIC_IN inbound - outbound (expected synthetic supply). */
            outstanding: components["schemas"]["Amount"];
            outbound_used: components["schemas"]["Amount"];
            inbound_used: components["schemas"]["Amount"];
            created_height: components["schemas"]["Height"];
            updated_height: components["schemas"]["Height"];
            transfers: components["schemas"]["Count"];
            asset_id: components["schemas"]["AssetIdOrEmpty"];
            kind_id: components["schemas"]["KindId"];
            bundle: boolean;
            /** @description RIGHT_OUT the escrow module account holding bridged-out units (it accrues their income); '' for coin routes. */
            escrow_address: components["schemas"]["Bech32AddressOrEmpty"];
            income_swept: components["schemas"]["IncomeSwept"];
            /** @description I8Check, or null before the first reconciliation. */
            i8: components["schemas"]["I8Check"] | components["schemas"]["JsonNull"];
        };
        BridgeRouteList: {
            /** @description Every route, by route_id; not paged. */
            routes: components["schemas"]["BridgeRoute"][];
        };
        BridgeRouteResponse: {
            route: components["schemas"]["BridgeRoute"];
        };
        BridgeTransfer: {
            height: components["schemas"]["Height"];
            /** Format: int64 */
            tx_index: number;
            /**
             * Format: int64
             * @description -1 for a rejected attempt (no event).
             */
            event_index: number;
            tx_hash: components["schemas"]["TxHash"];
            route_id: string;
            /** @enum {string} */
            direction: "out" | "in";
            /** @enum {string} */
            status: "in_flight" | "completed" | "rejected";
            /** @description Local canonical bech32 for out; the remote sender for in. */
            sender: string;
            /** @description The remote recipient for out; local canonical bech32 for in. */
            recipient: string;
            amount: components["schemas"]["Amount"];
            /** @description Bridge message id (0x bytes32, lower-case); '' for rejected. */
            message_id: string;
            /** @description Rejected only, the failed tx code (`bridge/4` route paused, `bridge/5` cap exceeded); '' otherwise. */
            reason: string;
            /**
             * Format: int64
             * @description Block time in nanoseconds since the Unix epoch (int64; beyond 2^53, so parse with a big-integer-aware JSON reader if nanoseconds matter).
             */
            block_time_ns: number;
            asset_id: components["schemas"]["AssetIdOrEmpty"];
            kind_id: components["schemas"]["KindId"];
            bundle: boolean;
        };
        BridgeTransferPage: {
            /** @description Newest first. */
            transfers: components["schemas"]["BridgeTransfer"][];
            next_cursor: components["schemas"]["NextCursor"];
        };
        /** @description Open object (design choice): one side's view of an (asset, kind) at the check's height, as the chain answers it (Query/KindSupply, Query/Holders summed over every page, Query/Accrual per denom) or as the indexer stores it. A check agrees when both sides exist and are equal field by field, and on each side `holders_sum` equals `supply`. */
        SupplySnapshot: {
            /** @description False when this side does not know the kind (then every other field is zero). */
            exists?: boolean;
            supply?: components["schemas"]["Amount"];
            holder_count?: components["schemas"]["Count"];
            holders_sum?: components["schemas"]["Amount"];
            /** @description Accruals of the kind with anything distributed, by denom: `{denom, index, carry_scaled, module_held, total_distributed, total_paid, distributions_count}` (decimal strings but the count). */
            accruals?: Record<string, unknown>[];
        };
        /** @description Latest supply/holder-count reconciliation of one (asset, kind); every field always present. */
        InvariantCheck: {
            asset_id: components["schemas"]["AssetId"];
            kind_id: components["schemas"]["KindId"];
            height: components["schemas"]["Height"];
            agree: boolean;
            chain: components["schemas"]["SupplySnapshot"];
            indexer: components["schemas"]["SupplySnapshot"];
        };
        /** @description Token-registry reconciliation row; every field always present. */
        Svc20Check: {
            asset_id: components["schemas"]["AssetId"];
            /**
             * Format: int64
             * @description Null for the bundle row.
             */
            kind_id: number | null;
            bundle: boolean;
            height: components["schemas"]["Height"];
            indexer_address: components["schemas"]["EvmAddressOrEmpty"];
            chain_address: components["schemas"]["EvmAddressOrEmpty"];
            /** @description False on a chain older than 0.9.0 or a binary that does not serve the query: reported as not evaluated, never as drift. */
            evaluated: boolean;
            agree: boolean;
        };
        InvariantsResponse: {
            /** @description Latest per (asset, kind), by asset_id then kind_id. */
            checks: components["schemas"]["InvariantCheck"][];
            /** @description Per asset, kind rows by kind_id then the bundle row. */
            svc20_registry: components["schemas"]["Svc20Check"][];
        };
        /** @description Lookup candidate (design choice). `type` and `id` always; `known` and `evm_address` on account candidates; `kind_id` and `bundle` on asset candidates found by precompile address; `height` on tx and block candidates. */
        Candidate: {
            /** @enum {string} */
            type: "asset" | "tx" | "account" | "block" | "settlement" | "encumbrance";
            /** @description asset: asset id; tx: consensus hash; account: canonical bech32; block: the height; settlement, encumbrance: the id (decimal strings). */
            id: string;
            /** @description Account only; true when the chain recorded something about it. */
            known?: boolean;
            /** @description Account only; EIP-55, null for 32-byte module accounts. */
            evm_address?: string | null;
            /**
             * Format: int64
             * @description Asset via precompile address only; the kind of a right token, null for the bundle token.
             */
            kind_id?: number | null;
            /** @description Asset via precompile address only; true for the bundle token. */
            bundle?: boolean;
            height?: components["schemas"]["Height"];
        };
        LookupResponse: {
            /** @description q as received. */
            query: string;
            /** @description In dispatch order; empty when a recognised shape has nothing behind it. */
            candidates: components["schemas"]["Candidate"][];
        };
    };
    responses: {
        /** @description 304 Not Modified: the `If-None-Match` header matched the current answer's `ETag`. No body; the `ETag` and `Cache-Control` a 200 would carry. */
        NotModified: {
            headers: {
                ETag: components["headers"]["ETag"];
                "Cache-Control": components["headers"]["CacheControl"];
                [name: string]: unknown;
            };
            content?: never;
        };
        /** @description 400 bad_request, a malformed input: `limit` not an integer or outside 1..100; a malformed or foreign `cursor`; a malformed asset id, kind, numeric id, hash, address or height in the path; an unknown `status` filter value; a `method` filter not of the form `/<pkg>.<Msg>`; an `asset` filter not 64 lower-case hex; a `message_id` filter not `0x` + 64 hex; a malformed `party`/`account` address; a known query parameter given twice. Unknown query parameters are ignored. */
        BadRequest: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description 404 not_found, a well-formed reference to nothing, an unknown path, or an unrecognised lookup shape. */
        NotFound: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description 405 method_not_allowed: any method other than GET on an existing path. Every path of this document can answer it; it is listed here once rather than on operations that do not exist. */
        MethodNotAllowed: {
            headers: {
                Allow: components["headers"]["Allow"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description 410 cursor_expired (/v1/stream): the resume point is older than the replay bound; re-read from the list endpoints and reconnect without an id. */
        CursorExpired: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description 401 unauthorized: the request sent an API key (`Authorization: Bearer <key>` or `X-API-Key`) that is not configured. Send a configured key, or none (then the client address's budget applies). See x-design-choices `api-keys`. */
        Unauthorized: {
            headers: {
                "WWW-Authenticate"?: string;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description 429 too_many_requests: the client's budget does not hold this request's cost while another client is asking (see x-design-choices `rate-limits`), or (/v1/stream) too many open streams in total or from this client address. Nothing was read. Wait `Retry-After` seconds: the connection is not read again before that. */
        TooManyRequests: {
            headers: {
                "Retry-After": components["headers"]["RetryAfter"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description 503 unavailable: a deadline was missed (see x-design-choices `deadlines`): no store connection came free within DB_WAIT_MS, the query ran past STATEMENT_TIMEOUT_MS, or the server is overloaded and this client spends fast; /v1/stream also when the indexed height cannot be read. Retry after `Retry-After` seconds. */
        Unavailable: {
            headers: {
                "Retry-After": components["headers"]["RetryAfter"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description 500 internal, a server fault. */
        Internal: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
    };
    parameters: {
        /** @description Page size, a base-10 integer 1..100; default 20. Not an integer or outside 1..100 → 400 bad_request (never clamped). */
        Limit: number;
        /** @description Number of latest transactions in `latest_txs`, a base-10 integer 1..100; default 6. Otherwise → 400 bad_request. */
        StatsLimit: number;
        /** @description Opaque cursor from a previous answer of the same list (`next_cursor`; for /v1/txs also `prev_cursor` or `last_cursor`); repeat the same filters and `limit`. Absent or empty = first page. Malformed, or from another list → 400 bad_request. Today base64url of at most 512 characters; do not parse it. */
        Cursor: string;
        /** @description Answer as the path answered when the index stood at this block height (state at a past height). Absent: the head, and the answer is exactly what it is without this parameter. Given: a base-10 integer in the kept range, the first indexed height .. the indexed height (every height is kept today); the answer then carries `height`, the height it answers for, and its cursors are bound to it (a cursor issued at one height, or without one, used at another or without → 400 bad_request). Not a non-negative integer, above the indexed height, or below the kept range → 400 bad_request with a message that names the kept range (`height 90 is above the indexed height; the kept range is 1..57`). Typed as text so that the server, which knows the kept range, refuses every bad value with that message. Served on /v1/assets/{id}/kinds/{kind}/holders so far (docs/rest-adapter.md, "State at a past height"). */
        Height: string;
        /** @description Block height, a non-negative base-10 integer (else 400). Above the indexed height, or 0 → 404. */
        HeightPath: number;
        /** @description Consensus hash (64 hex characters, case-insensitive) or eth hash of a MsgEthereumTx (`0x` + 64 hex, case-insensitive). Any other shape → 400; a well-formed hash of no indexed tx → 404. */
        TxHashPath: string;
        /** @description Asset id, 64 lower-case hex characters (else 400). A well-formed id of no asset → 404. */
        AssetIdPath: components["schemas"]["AssetId"];
        /** @description Kind id, a uint32 (else 400). A kind the asset does not have → 404. */
        KindPath: number;
        /** @description Account address: bech32 `<hrp>1…` (20- or 32-byte account, all lower or all upper case) or `0x` + 40 hex of a 20-byte key (EIP-55 checked when mixed case). Anything else → 400. Answers carry the canonical lower-case bech32. */
        AddressPath: string;
        /** @description Numeric id (uint64), a non-negative base-10 integer (else 400). A well-formed id of nothing → 404. */
        IdPath: number;
        /** @description Entity tags of answers the client holds (RFC 9110 13.1.2). When one matches the current answer's `ETag` (weak comparison: `W/` ignored; `*` matches any current answer) the answer is 304 Not Modified with no body. See x-design-choices `validators`. */
        IfNoneMatch: string;
    };
    requestBodies: never;
    headers: {
        /** @description Seconds to wait before the next request (delta-seconds, at least 1). */
        RetryAfter: number;
        /** @description IETF RateLimit field (draft-ietf-httpapi-ratelimit-headers), on every answer to a client with a budget: `"<policy>";r=<units left>;t=<seconds until the budget is full again>`, policy `client` (the client address's budget) or `key` (an API key's). See x-design-choices `rate-limits`. */
        RateLimit: string;
        /** @description IETF RateLimit-Policy field: `"<policy>";q=<units of a full budget>;w=<seconds a spent budget takes to refill>`; a request costs 1 or more units (x-design-choices `rate-limits`). */
        RateLimitPolicy: string;
        /** @description The methods the path accepts. */
        Allow: "GET";
        /** @description Strong entity tag of this answer (RFC 9110 8.8.3), opaque. Sent with every 200 and repeated on 304; send it back in `If-None-Match`. See x-design-choices `validators`. */
        ETag: string;
        /** @description How long the answer may be kept (RFC 9111). `public, max-age=31536000, immutable` for a tx by hash and a block by height, which never change once they exist; `public, max-age=<s>` for every other answer, `<s>` = one block interval (the median of the latest block intervals, whole seconds, so 0 on a chain faster than a block a second); `no-cache` for /openapi.yaml. Error answers carry `no-store`. See x-design-choices `validators`. */
        CacheControl: string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getOpenApi: {
        parameters: {
            query?: never;
            header?: {
                /** @description Entity tags of answers the client holds (RFC 9110 13.1.2). When one matches the current answer's `ETag` (weak comparison: `W/` ignored; `*` matches any current answer) the answer is 304 Not Modified with no body. See x-design-choices `validators`. */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description This document. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "text/yaml": string;
                };
            };
            304: components["responses"]["NotModified"];
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    getStatus: {
        parameters: {
            query?: never;
            header?: {
                /** @description Entity tags of answers the client holds (RFC 9110 13.1.2). When one matches the current answer's `ETag` (weak comparison: `W/` ignored; `*` matches any current answer) the answer is 304 Not Modified with no body. See x-design-choices `validators`. */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Status. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Status"];
                };
            };
            304: components["responses"]["NotModified"];
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    getStats: {
        parameters: {
            query?: {
                /** @description Number of latest transactions in `latest_txs`, a base-10 integer 1..100; default 6. Otherwise → 400 bad_request. */
                limit?: components["parameters"]["StatsLimit"];
            };
            header?: {
                /** @description Entity tags of answers the client holds (RFC 9110 13.1.2). When one matches the current answer's `ETag` (weak comparison: `W/` ignored; `*` matches any current answer) the answer is 304 Not Modified with no body. See x-design-choices `validators`. */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Stats. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Stats"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    listBlocks: {
        parameters: {
            query?: {
                /** @description Page size, a base-10 integer 1..100; default 20. Not an integer or outside 1..100 → 400 bad_request (never clamped). */
                limit?: components["parameters"]["Limit"];
                /** @description Opaque cursor from a previous answer of the same list (`next_cursor`; for /v1/txs also `prev_cursor` or `last_cursor`); repeat the same filters and `limit`. Absent or empty = first page. Malformed, or from another list → 400 bad_request. Today base64url of at most 512 characters; do not parse it. */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: {
                /** @description Entity tags of answers the client holds (RFC 9110 13.1.2). When one matches the current answer's `ETag` (weak comparison: `W/` ignored; `*` matches any current answer) the answer is 304 Not Modified with no body. See x-design-choices `validators`. */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of blocks. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BlockPage"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    getBlock: {
        parameters: {
            query?: never;
            header?: {
                /** @description Entity tags of answers the client holds (RFC 9110 13.1.2). When one matches the current answer's `ETag` (weak comparison: `W/` ignored; `*` matches any current answer) the answer is 304 Not Modified with no body. See x-design-choices `validators`. */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /** @description Block height, a non-negative base-10 integer (else 400). Above the indexed height, or 0 → 404. */
                height: components["parameters"]["HeightPath"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The block. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BlockDetail"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    listTxs: {
        parameters: {
            query?: {
                /** @description Page size, a base-10 integer 1..100; default 20. Not an integer or outside 1..100 → 400 bad_request (never clamped). */
                limit?: components["parameters"]["Limit"];
                /** @description Type URL of the first message, form `/<pkg>.<Msg>` (for example `/svc.rights.v1.MsgTransfer`, `/ethermint.evm.v1.MsgEthereumTx`). Any other form gives 400; a well-formed type URL nobody used gives an empty page with total 0. */
                method?: string;
                /** @description Opaque cursor from a previous answer of the same list (`next_cursor`; for /v1/txs also `prev_cursor` or `last_cursor`); repeat the same filters and `limit`. Absent or empty = first page. Malformed, or from another list → 400 bad_request. Today base64url of at most 512 characters; do not parse it. */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: {
                /** @description Entity tags of answers the client holds (RFC 9110 13.1.2). When one matches the current answer's `ETag` (weak comparison: `W/` ignored; `*` matches any current answer) the answer is 304 Not Modified with no body. See x-design-choices `validators`. */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of transactions. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TxPage"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    getTx: {
        parameters: {
            query?: never;
            header?: {
                /** @description Entity tags of answers the client holds (RFC 9110 13.1.2). When one matches the current answer's `ETag` (weak comparison: `W/` ignored; `*` matches any current answer) the answer is 304 Not Modified with no body. See x-design-choices `validators`. */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /** @description Consensus hash (64 hex characters, case-insensitive) or eth hash of a MsgEthereumTx (`0x` + 64 hex, case-insensitive). Any other shape → 400; a well-formed hash of no indexed tx → 404. */
                hash: components["parameters"]["TxHashPath"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The transaction (a bare Tx, no envelope). */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Tx"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    listAssets: {
        parameters: {
            query?: {
                /** @description Page size, a base-10 integer 1..100; default 20. Not an integer or outside 1..100 → 400 bad_request (never clamped). */
                limit?: components["parameters"]["Limit"];
                /** @description Opaque cursor from a previous answer of the same list (`next_cursor`; for /v1/txs also `prev_cursor` or `last_cursor`); repeat the same filters and `limit`. Absent or empty = first page. Malformed, or from another list → 400 bad_request. Today base64url of at most 512 characters; do not parse it. */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: {
                /** @description Entity tags of answers the client holds (RFC 9110 13.1.2). When one matches the current answer's `ETag` (weak comparison: `W/` ignored; `*` matches any current answer) the answer is 304 Not Modified with no body. See x-design-choices `validators`. */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of assets. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AssetPage"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    getAsset: {
        parameters: {
            query?: never;
            header?: {
                /** @description Entity tags of answers the client holds (RFC 9110 13.1.2). When one matches the current answer's `ETag` (weak comparison: `W/` ignored; `*` matches any current answer) the answer is 304 Not Modified with no body. See x-design-choices `validators`. */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /** @description Asset id, 64 lower-case hex characters (else 400). A well-formed id of no asset → 404. */
                id: components["parameters"]["AssetIdPath"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The asset. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AssetResponse"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    getAssetGraph: {
        parameters: {
            query?: never;
            header?: {
                /** @description Entity tags of answers the client holds (RFC 9110 13.1.2). When one matches the current answer's `ETag` (weak comparison: `W/` ignored; `*` matches any current answer) the answer is 304 Not Modified with no body. See x-design-choices `validators`. */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /** @description Asset id, 64 lower-case hex characters (else 400). A well-formed id of no asset → 404. */
                id: components["parameters"]["AssetIdPath"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The graph. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AssetGraph"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    listHolders: {
        parameters: {
            query?: {
                /** @description Page size, a base-10 integer 1..100; default 20. Not an integer or outside 1..100 → 400 bad_request (never clamped). */
                limit?: components["parameters"]["Limit"];
                /** @description Opaque cursor from a previous answer of the same list (`next_cursor`; for /v1/txs also `prev_cursor` or `last_cursor`); repeat the same filters and `limit`. Absent or empty = first page. Malformed, or from another list → 400 bad_request. Today base64url of at most 512 characters; do not parse it. */
                cursor?: components["parameters"]["Cursor"];
                /** @description Answer as the path answered when the index stood at this block height (state at a past height). Absent: the head, and the answer is exactly what it is without this parameter. Given: a base-10 integer in the kept range, the first indexed height .. the indexed height (every height is kept today); the answer then carries `height`, the height it answers for, and its cursors are bound to it (a cursor issued at one height, or without one, used at another or without → 400 bad_request). Not a non-negative integer, above the indexed height, or below the kept range → 400 bad_request with a message that names the kept range (`height 90 is above the indexed height; the kept range is 1..57`). Typed as text so that the server, which knows the kept range, refuses every bad value with that message. Served on /v1/assets/{id}/kinds/{kind}/holders so far (docs/rest-adapter.md, "State at a past height"). */
                height?: components["parameters"]["Height"];
            };
            header?: {
                /** @description Entity tags of answers the client holds (RFC 9110 13.1.2). When one matches the current answer's `ETag` (weak comparison: `W/` ignored; `*` matches any current answer) the answer is 304 Not Modified with no body. See x-design-choices `validators`. */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /** @description Asset id, 64 lower-case hex characters (else 400). A well-formed id of no asset → 404. */
                id: components["parameters"]["AssetIdPath"];
                /** @description Kind id, a uint32 (else 400). A kind the asset does not have → 404. */
                kind: components["parameters"]["KindPath"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of holders. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HolderPage"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    listDistributions: {
        parameters: {
            query?: {
                /** @description Page size, a base-10 integer 1..100; default 20. Not an integer or outside 1..100 → 400 bad_request (never clamped). */
                limit?: components["parameters"]["Limit"];
                /** @description Opaque cursor from a previous answer of the same list (`next_cursor`; for /v1/txs also `prev_cursor` or `last_cursor`); repeat the same filters and `limit`. Absent or empty = first page. Malformed, or from another list → 400 bad_request. Today base64url of at most 512 characters; do not parse it. */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: {
                /** @description Entity tags of answers the client holds (RFC 9110 13.1.2). When one matches the current answer's `ETag` (weak comparison: `W/` ignored; `*` matches any current answer) the answer is 304 Not Modified with no body. See x-design-choices `validators`. */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /** @description Asset id, 64 lower-case hex characters (else 400). A well-formed id of no asset → 404. */
                id: components["parameters"]["AssetIdPath"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of distributions. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DistributionPage"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    getAssetLiquidation: {
        parameters: {
            query?: never;
            header?: {
                /** @description Entity tags of answers the client holds (RFC 9110 13.1.2). When one matches the current answer's `ETag` (weak comparison: `W/` ignored; `*` matches any current answer) the answer is 304 Not Modified with no body. See x-design-choices `validators`. */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /** @description Asset id, 64 lower-case hex characters (else 400). A well-formed id of no asset → 404. */
                id: components["parameters"]["AssetIdPath"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The liquidation data (no envelope). */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AssetLiquidation"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    listAssetEvents: {
        parameters: {
            query?: {
                /** @description Page size, a base-10 integer 1..100; default 20. Not an integer or outside 1..100 → 400 bad_request (never clamped). */
                limit?: components["parameters"]["Limit"];
                /** @description Opaque cursor from a previous answer of the same list (`next_cursor`; for /v1/txs also `prev_cursor` or `last_cursor`); repeat the same filters and `limit`. Absent or empty = first page. Malformed, or from another list → 400 bad_request. Today base64url of at most 512 characters; do not parse it. */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: {
                /** @description Entity tags of answers the client holds (RFC 9110 13.1.2). When one matches the current answer's `ETag` (weak comparison: `W/` ignored; `*` matches any current answer) the answer is 304 Not Modified with no body. See x-design-choices `validators`. */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /** @description Asset id, 64 lower-case hex characters (else 400). A well-formed id of no asset → 404. */
                id: components["parameters"]["AssetIdPath"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of activity events. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AssetActivityPage"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    getAccount: {
        parameters: {
            query?: never;
            header?: {
                /** @description Entity tags of answers the client holds (RFC 9110 13.1.2). When one matches the current answer's `ETag` (weak comparison: `W/` ignored; `*` matches any current answer) the answer is 304 Not Modified with no body. See x-design-choices `validators`. */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /** @description Account address: bech32 `<hrp>1…` (20- or 32-byte account, all lower or all upper case) or `0x` + 40 hex of a 20-byte key (EIP-55 checked when mixed case). Anything else → 400. Answers carry the canonical lower-case bech32. */
                addr: components["parameters"]["AddressPath"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The account (no envelope). */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Account"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    getAccountAttestations: {
        parameters: {
            query?: never;
            header?: {
                /** @description Entity tags of answers the client holds (RFC 9110 13.1.2). When one matches the current answer's `ETag` (weak comparison: `W/` ignored; `*` matches any current answer) the answer is 304 Not Modified with no body. See x-design-choices `validators`. */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /** @description Account address: bech32 `<hrp>1…` (20- or 32-byte account, all lower or all upper case) or `0x` + 40 hex of a 20-byte key (EIP-55 checked when mixed case). Anything else → 400. Answers carry the canonical lower-case bech32. */
                addr: components["parameters"]["AddressPath"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The attestations. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccountAttestations"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    listAccountEvents: {
        parameters: {
            query?: {
                /** @description Page size, a base-10 integer 1..100; default 20. Not an integer or outside 1..100 → 400 bad_request (never clamped). */
                limit?: components["parameters"]["Limit"];
                /** @description Opaque cursor from a previous answer of the same list (`next_cursor`; for /v1/txs also `prev_cursor` or `last_cursor`); repeat the same filters and `limit`. Absent or empty = first page. Malformed, or from another list → 400 bad_request. Today base64url of at most 512 characters; do not parse it. */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: {
                /** @description Entity tags of answers the client holds (RFC 9110 13.1.2). When one matches the current answer's `ETag` (weak comparison: `W/` ignored; `*` matches any current answer) the answer is 304 Not Modified with no body. See x-design-choices `validators`. */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /** @description Account address: bech32 `<hrp>1…` (20- or 32-byte account, all lower or all upper case) or `0x` + 40 hex of a 20-byte key (EIP-55 checked when mixed case). Anything else → 400. Answers carry the canonical lower-case bech32. */
                addr: components["parameters"]["AddressPath"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of activity events. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccountActivityPage"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    getAttester: {
        parameters: {
            query?: never;
            header?: {
                /** @description Entity tags of answers the client holds (RFC 9110 13.1.2). When one matches the current answer's `ETag` (weak comparison: `W/` ignored; `*` matches any current answer) the answer is 304 Not Modified with no body. See x-design-choices `validators`. */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /** @description Account address: bech32 `<hrp>1…` (20- or 32-byte account, all lower or all upper case) or `0x` + 40 hex of a 20-byte key (EIP-55 checked when mixed case). Anything else → 400. Answers carry the canonical lower-case bech32. */
                addr: components["parameters"]["AddressPath"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The attester aggregates. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AttesterSummary"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    listSettlements: {
        parameters: {
            query?: {
                /** @description Account that is proposer or counterparty; bech32 (the `0x` form of a 20-byte key is also accepted). Malformed → 400. */
                party?: string;
                /** @description STATUS_PENDING, STATUS_SETTLED, STATUS_CANCELLED, STATUS_EXPIRED or the short forms pending, settled, cancelled, expired. Anything else → 400. */
                status?: "STATUS_PENDING" | "STATUS_SETTLED" | "STATUS_CANCELLED" | "STATUS_EXPIRED" | "pending" | "settled" | "cancelled" | "expired";
                /** @description Page size, a base-10 integer 1..100; default 20. Not an integer or outside 1..100 → 400 bad_request (never clamped). */
                limit?: components["parameters"]["Limit"];
                /** @description Opaque cursor from a previous answer of the same list (`next_cursor`; for /v1/txs also `prev_cursor` or `last_cursor`); repeat the same filters and `limit`. Absent or empty = first page. Malformed, or from another list → 400 bad_request. Today base64url of at most 512 characters; do not parse it. */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: {
                /** @description Entity tags of answers the client holds (RFC 9110 13.1.2). When one matches the current answer's `ETag` (weak comparison: `W/` ignored; `*` matches any current answer) the answer is 304 Not Modified with no body. See x-design-choices `validators`. */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of settlements. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SettlementPage"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    getSettlement: {
        parameters: {
            query?: never;
            header?: {
                /** @description Entity tags of answers the client holds (RFC 9110 13.1.2). When one matches the current answer's `ETag` (weak comparison: `W/` ignored; `*` matches any current answer) the answer is 304 Not Modified with no body. See x-design-choices `validators`. */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /** @description Numeric id (uint64), a non-negative base-10 integer (else 400). A well-formed id of nothing → 404. */
                id: components["parameters"]["IdPath"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The settlement. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SettlementResponse"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    getEncumbrance: {
        parameters: {
            query?: never;
            header?: {
                /** @description Entity tags of answers the client holds (RFC 9110 13.1.2). When one matches the current answer's `ETag` (weak comparison: `W/` ignored; `*` matches any current answer) the answer is 304 Not Modified with no body. See x-design-choices `validators`. */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /** @description Numeric id (uint64), a non-negative base-10 integer (else 400). A well-formed id of nothing → 404. */
                id: components["parameters"]["IdPath"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The encumbrance. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EncumbranceResponse"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    getDelegation: {
        parameters: {
            query?: never;
            header?: {
                /** @description Entity tags of answers the client holds (RFC 9110 13.1.2). When one matches the current answer's `ETag` (weak comparison: `W/` ignored; `*` matches any current answer) the answer is 304 Not Modified with no body. See x-design-choices `validators`. */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /** @description Numeric id (uint64), a non-negative base-10 integer (else 400). A well-formed id of nothing → 404. */
                id: components["parameters"]["IdPath"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The delegation. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DelegationResponse"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    listBridgeRoutes: {
        parameters: {
            query?: never;
            header?: {
                /** @description Entity tags of answers the client holds (RFC 9110 13.1.2). When one matches the current answer's `ETag` (weak comparison: `W/` ignored; `*` matches any current answer) the answer is 304 Not Modified with no body. See x-design-choices `validators`. */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The routes. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BridgeRouteList"];
                };
            };
            304: components["responses"]["NotModified"];
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    getBridgeRoute: {
        parameters: {
            query?: never;
            header?: {
                /** @description Entity tags of answers the client holds (RFC 9110 13.1.2). When one matches the current answer's `ETag` (weak comparison: `W/` ignored; `*` matches any current answer) the answer is 304 Not Modified with no body. See x-design-choices `validators`. */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /** @description Route id (any string; an unknown id gives 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The route. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BridgeRouteResponse"];
                };
            };
            304: components["responses"]["NotModified"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    listBridgeTransfers: {
        parameters: {
            query?: {
                /** @description Route id; any string (an unknown route matches nothing). */
                route?: string;
                /** @description in_flight, completed or rejected; anything else → 400. */
                status?: "in_flight" | "completed" | "rejected";
                /** @description Sender or recipient, local or remote. A bech32 address matches the local account (canonical form). `0x` + 40 hex (EIP-55 checked when mixed case) matches the local account of that key (its bech32 form) and the remote party whose 0x bytes32 is that key left-padded with 12 zero bytes. `0x` + 64 hex matches a remote party (0x bytes32), compared in lower-case hex as bridge events carry it, and also as written (a rejected attempt keeps the recipient its MsgBridgeOut sent). Malformed → 400. */
                account?: string;
                /** @description Bridge message id, `0x` + 64 hex (any case). Otherwise → 400. */
                message_id?: string;
                /** @description Page size, a base-10 integer 1..100; default 20. Not an integer or outside 1..100 → 400 bad_request (never clamped). */
                limit?: components["parameters"]["Limit"];
                /** @description Opaque cursor from a previous answer of the same list (`next_cursor`; for /v1/txs also `prev_cursor` or `last_cursor`); repeat the same filters and `limit`. Absent or empty = first page. Malformed, or from another list → 400 bad_request. Today base64url of at most 512 characters; do not parse it. */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: {
                /** @description Entity tags of answers the client holds (RFC 9110 13.1.2). When one matches the current answer's `ETag` (weak comparison: `W/` ignored; `*` matches any current answer) the answer is 304 Not Modified with no body. See x-design-choices `validators`. */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of transfers. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BridgeTransferPage"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    lookup: {
        parameters: {
            query?: never;
            header?: {
                /** @description Entity tags of answers the client holds (RFC 9110 13.1.2). When one matches the current answer's `ETag` (weak comparison: `W/` ignored; `*` matches any current answer) the answer is 304 Not Modified with no body. See x-design-choices `validators`. */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /** @description Free-form search string. */
                q: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The candidates. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LookupResponse"];
                };
            };
            304: components["responses"]["NotModified"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    listInvariants: {
        parameters: {
            query?: {
                /** @description Asset id, 64 lower-case hex; anything else → 400. */
                asset?: string;
            };
            header?: {
                /** @description Entity tags of answers the client holds (RFC 9110 13.1.2). When one matches the current answer's `ETag` (weak comparison: `W/` ignored; `*` matches any current answer) the answer is 304 Not Modified with no body. See x-design-choices `validators`. */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The checks. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InvariantsResponse"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    streamEvents: {
        parameters: {
            query?: {
                /** @description Follow an account, bech32 or 0x (as /v1/accounts/{addr}); malformed → 400. */
                account?: string;
                /** @description Follow an asset, 64 lower-case hex; anything else → 400. */
                asset?: string;
                /** @description Follow txs whose first message has this type URL (as /v1/txs `method`); malformed → 400. */
                method?: string;
                /** @description Resume after this event id (an `id:` this stream sent). `Last-Event-ID` wins when both are given. Malformed → 400; too old → 410. */
                after?: string;
            };
            header?: {
                /** @description The id of the last event received (sent by EventSource on reconnect); see `after`. Checked as `after` is. */
                "Last-Event-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The event stream: `retry:` and a comment first, then events as they are indexed (after the replay from the resume point, if any). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example retry: 2000
                     *     : stream open
                     *
                     *     id: eyJrIjoic3RyZWFtIiwidiI6WzE0MCwwLDAsMF19
                     *     event: block
                     *     data: {"height":140,"hash":"…","time":"2025-03-01T10:10:00Z","proposer":"…","tx_count":1,"event_count":4}
                     */
                    "text/event-stream": string;
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            410: components["responses"]["CursorExpired"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
}
