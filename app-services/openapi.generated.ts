// Generated from app-services/openapi.yaml by `npm run gen:api-types` (openapi-typescript). Do not edit:
// change app-services/openapi.yaml and run the script; tests/unit/api-contract.test.ts checks it is fresh.

export interface paths {
    "/api/desk/quotes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Bid and ask per whole share and per kind. */
        get: operations["getQuotes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/desk/rfq": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Ask the desk to propose a trade; answered once the proposal is committed.
         * @description The desk proposes a settlement to `address` with its own side escrowed (sell: it gives the stable denom at its bid and asks the units; buy: it gives the units at its ask and asks the stable denom), expiring 10 minutes later. The requester accepts it on the chain (MsgAccept): both sides move in that block or not at all.
         */
        post: operations["requestQuote"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/desk/offers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What the desk did with the proposals an address sent it, newest first (at most 1000).
         * @description Also the desk's own proposals for the address's sell RFQs that it withdrew because the address could no longer deliver the units (they moved, or were locked or pledged, after the RFQ): verdict `cancelled`, reason `undeliverable`, the detail naming the RFQ and what the address holds. Ask a new RFQ once the units are free to move.
         */
        get: operations["listOffers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/lender/terms": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The lender's address and terms. */
        get: operations["getLenderTerms"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/lender/loans": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A borrower's loans, newest first (at most 1000). */
        get: operations["listLoans"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/openapi.yaml": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This document. */
        get: operations["getAppOpenApi"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/launchpad/metadata": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Store a metadata document; answer its meta_hash.
         * @description Validates the document (fields, limits, PNG logo, the refusal table), stores its canonical form once and answers its `meta_hash`, the value to put in the asset's `meta_hash` when it is created on the chain. Idempotent: the same document (in any key order) answers the same hash, 200 each time.
         */
        post: operations["createMetadata"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/launchpad/metadata/{meta_hash}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A stored metadata document. */
        get: operations["getMetadata"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The API key's webhook subscriptions.
         * @description Every subscription of the key the request carries (`Authorization: Bearer <key>` or `X-API-Key`, a key of `API_KEYS_FILE`), oldest first. No secret is ever answered here.
         */
        get: operations["listWebhooks"];
        put?: never;
        /**
         * Subscribe a URL to the blocks, an account's, an asset's or a method's events.
         * @description Creates a subscription delivering, to `url`, every event `/v1/stream` sends for the same filter (at most one of `account`, `asset`, `method`; none: the chain's blocks), each as a POST of `{id, type, data}` (the stream's event id, event name and data) signed as Standard Webhooks says (`webhook-id` = the event id, `webhook-timestamp`, `webhook-signature` `v1,<base64 HMAC-SHA256>`). Deliveries start after the indexed height at create, or after the event id `after` (an id the stream wrote: a replay from the past). The answer carries the `secret` (`whsec_…`): shown this once, never again. The URL's host must resolve to public addresses only (unless `WEBHOOK_ALLOW_PRIVATE`); a key holds at most `WEBHOOK_MAX_PER_KEY` subscriptions.
         */
        post: operations["createWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A webhook id (`wh_` and 24 hex). */
                id: components["parameters"]["WebhookId"];
            };
            cookie?: never;
        };
        /**
         * One subscription of the key, its state and cursor.
         * @description The subscription's state (`active`, `paused`, `disabled` with its `reason`), its cursor (every event up to it is delivered), its failures and next attempt. Another key's subscription is a 404, as a missing one.
         */
        get: operations["getWebhook"];
        put?: never;
        post?: never;
        /**
         * Delete a subscription, its delivery log with it.
         * @description Nothing more is delivered once the answer is sent, but a delivery already in flight.
         */
        delete: operations["deleteWebhook"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{id}/pause": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A webhook id (`wh_` and 24 hex). */
                id: components["parameters"]["WebhookId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Stop delivering; the cursor stays where it is.
         * @description A paused subscription gets nothing (but the delivery in flight) until resumed; a resume then delivers exactly the events it missed, in order.
         */
        post: operations["pauseWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{id}/resume": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A webhook id (`wh_` and 24 hex). */
                id: components["parameters"]["WebhookId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Deliver again (a paused or disabled subscription), from its cursor or from an event id.
         * @description Forgets the failures and the disable reason and delivers from where the subscription stopped, or, with `after`, from after that event id (any id the stream wrote; the index keeps every height). The body may be empty.
         */
        post: operations["resumeWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{id}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A webhook id (`wh_` and 24 hex). */
                id: components["parameters"]["WebhookId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A new secret; the old one stays valid for WEBHOOK_ROTATE_OVERLAP_S.
         * @description Answers the new `secret` (shown this once). Until `previous_secret_valid_until` every delivery carries two signatures in `webhook-signature` (new and old, space-separated), so a receiver verifying with either secret accepts it.
         */
        post: operations["rotateWebhookSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A webhook id (`wh_` and 24 hex). */
                id: components["parameters"]["WebhookId"];
            };
            cookie?: never;
        };
        /** The delivery log, newest first (the last WEBHOOK_LOG_KEEP attempts, at most 100 answered). */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{id}/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A webhook id (`wh_` and 24 hex). */
                id: components["parameters"]["WebhookId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Deliver one already delivered event again.
         * @description Queues `event_id` (at or before the cursor) for one more delivery, regenerated from the index and signed anew; it is made beside the subscription's order (the cursor does not move) and logged with `redelivery: true`.
         */
        post: operations["redeliverWebhookEvent"];
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
        /** @description An event id of `/v1/stream` (its `id:` line), as `webhook-id` carries it. */
        EventId: string;
        WebhookRequest: {
            /** @description http or https, no credentials or fragment; its host must resolve to public addresses. */
            url: string;
            /** @description Follow an account, bech32 or 0x (as /v1/stream `account`). */
            account?: string;
            /** @description Follow an asset, 64 lower-case hex. */
            asset?: string;
            /** @description Follow txs whose first message has this type URL. */
            method?: string;
            /** @description Deliver block events too (default true without a filter, false with one). */
            blocks?: boolean;
            after?: components["schemas"]["EventId"];
        };
        WebhookResume: {
            after?: components["schemas"]["EventId"];
        };
        WebhookRedeliver: {
            event_id: components["schemas"]["EventId"];
        };
        WebhookRedeliverAnswer: {
            queued: boolean;
            event_id: string;
        };
        WebhookDeleted: {
            deleted: boolean;
            id: string;
        };
        Webhook: {
            id: string;
            url: string;
            /** @description {} (the chain), or one of account (bech32), asset, method. */
            filter: {
                account?: string;
                asset?: string;
                method?: string;
            };
            blocks: boolean;
            /** @enum {string} */
            state: "active" | "paused" | "disabled";
            /** @description Why it was disabled (failing for WEBHOOK_RETRY_HOURS, with the last error). */
            reason: string | null;
            /** @description Every event up to here is delivered; after event_id, or (null) after every event of height. */
            cursor: {
                height: number;
                event_id: string | null;
            };
            /** @description Failed attempts in a row. */
            failures: number;
            /** Format: date-time */
            failing_since: string | null;
            /** Format: date-time */
            next_attempt_at: string | null;
            last_error: string | null;
            delivered: number;
            /** Format: date-time */
            previous_secret_valid_until: string | null;
            /** @enum {string} */
            source: "api" | "file";
            /** Format: date-time */
            created_at: string;
        };
        /** @description A subscription with its signing secret (at create and rotate only). */
        WebhookWithSecret: {
            id: string;
            url: string;
            /** @description {} (the chain), or one of account (bech32), asset, method. */
            filter: {
                account?: string;
                asset?: string;
                method?: string;
            };
            blocks: boolean;
            /** @enum {string} */
            state: "active" | "paused" | "disabled";
            /** @description Why it was disabled (failing for WEBHOOK_RETRY_HOURS, with the last error). */
            reason: string | null;
            /** @description Every event up to here is delivered; after event_id, or (null) after every event of height. */
            cursor: {
                height: number;
                event_id: string | null;
            };
            /** @description Failed attempts in a row. */
            failures: number;
            /** Format: date-time */
            failing_since: string | null;
            /** Format: date-time */
            next_attempt_at: string | null;
            last_error: string | null;
            delivered: number;
            /** Format: date-time */
            previous_secret_valid_until: string | null;
            /** @enum {string} */
            source: "api" | "file";
            /** Format: date-time */
            created_at: string;
            /** @description The signing secret (`whsec_` + base64), for `new Webhook(secret)` of `standardwebhooks`. Shown once. */
            secret: string;
        };
        WebhookList: {
            webhooks: components["schemas"]["Webhook"][];
        };
        WebhookDelivery: {
            event_id: string;
            attempt: number;
            /** @description The receiver's HTTP status; null when none came (timeout, refused connection, TLS error). */
            status: number | null;
            latency_ms: number;
            error: string | null;
            redelivery: boolean;
            /** Format: date-time */
            at: string;
        };
        WebhookDeliveryList: {
            deliveries: components["schemas"]["WebhookDelivery"][];
        };
        /** @description Lower-case hex SHA-256 of the canonical document. */
        MetaHash: string;
        /**
         * @description community: one ECONOMIC kind, fixed supply; dividend: ECONOMIC + INCOME; equity: ECONOMIC, INCOME, VOTE; bond: a REDEMPTION kind and one INCOME kind per coupon date.
         * @enum {string}
         */
        Template: "community" | "dividend" | "equity" | "bond";
        MetadataRequest: {
            name: string;
            symbol: string;
            description: string;
            template: components["schemas"]["Template"];
            /** @description PNG as base64 (standard or URL-safe, padding optional), at most 256 KiB decoded. */
            logo?: string | null;
        };
        MetaHashAnswer: {
            meta_hash: components["schemas"]["MetaHash"];
        };
        MetadataDocument: {
            meta_hash: components["schemas"]["MetaHash"];
            name: string;
            symbol: string;
            template: components["schemas"]["Template"];
            description: string;
            /** @description The PNG in standard base64 with padding; null when the document has none. */
            logo: string | null;
            /** @description Community-launched, verified by no one, a testnet document (testnet tokens have no value). */
            notice: string;
            /** @description The first asset created with this `meta_hash` (by height, then its tx's place in the block, then id), as indexed; the document is bound to it, and later assets with the same `meta_hash` are look-alikes the desk never quotes. Null while no indexed asset carries it. */
            asset_id: string | null;
        };
        /** @description Arbitrary-precision non-negative integer as a decimal string. */
        Amount: string;
        LenderTerms: {
            /** @description The lender's account (bech32); pledges name it as beneficiary, repayments as counterparty. */
            lender: string;
            /** @description The principal as a share of the pledged shares' value at the pool price (5000 = 50 %). */
            ltv_bps: number;
            /** @description The pledges are exercised when the principal reaches this share of the shares' current value (8000). */
            liquidation_ltv_bps: number;
            max_principal: components["schemas"]["Amount"];
            /** @description The stable denom principals and repayments are in. */
            denom: string;
            /** @description All pledges of a loan within this much block time of the first (120). */
            pledge_window_seconds: number;
            /** @description Every asset with a pool against the stable denom, by id: the principal the lender would lend against it now (before a borrower's own cap and the shares' value), and why not more. Computed for the latest chain height, at most a few seconds old. */
            capacity: components["schemas"]["LenderCapacity"][];
        };
        LenderCapacity: {
            asset_id: string;
            /** @description The symbol of the asset's launchpad document; null when the launchpad has none. */
            symbol: string | null;
            lendable: components["schemas"]["Amount"];
            /** @description Why `lendable` is below `max_principal` (0 when the asset is not eligible now); null when it is not. */
            limited_by: components["schemas"]["Reason"] | components["schemas"]["JsonNull"];
            detail: string | null;
        };
        Loan: {
            /** @description L and the lowest pledge id of its pledge set (a refused or pending set too). */
            id: string;
            /** @description The symbol of the asset's launchpad document; null when the launchpad has none. */
            symbol: string | null;
            asset_id: string;
            units: components["schemas"]["Amount"];
            principal: components["schemas"]["Amount"];
            ltv_bps: number | null;
            /** @description The tx that paid the principal; null while opening. */
            open_tx: string | null;
            /**
             * @description `pending`: a pledge set the lender has not opened a loan for yet: one still inside its pledge window that lacks a kind (`pending.missing_kinds`), or a complete one the lender opens on its next pass (or holds while the asset cannot be valued, until the window ends); principal 0, `detail` says what it still lacks. `refused`: a pledge set that opened no loan (`reason` says why); its pledges are released by the lender in `close_tx`.
             * @enum {string}
             */
            status: "pending" | "opening" | "active" | "repaid" | "liquidated" | "cancelled" | "refused";
            /** @description The repayment's accept + release tx, the liquidation's exercise tx, or the release tx of a refused or cancelled set (null until it is committed). */
            close_tx: string | null;
            routed_income: components["schemas"]["Amount"];
            /** @description The loan's encumbrance ids, by kind. */
            pledges: number[];
            /** @description Why a refused set opened no loan, or why a cancelled loan was not paid; null otherwise. */
            reason: components["schemas"]["Reason"] | components["schemas"]["JsonNull"];
            /** @description The refusal (or the cap that reduced the principal) with its figures; null when there is nothing to say. */
            detail: string | null;
            /** @description The cap that reduced the principal below what the shares' value allowed; null when it was not reduced. */
            limited_by: components["schemas"]["Reason"] | components["schemas"]["JsonNull"];
            /** @description What a `pending` set still lacks; null for every other status. */
            pending: {
                /** @description The kind ids not pledged yet (empty for a complete set), each to be pledged with the same units within the window. */
                missing_kinds: number[];
                /** @description Seconds of the pledge window left (LENDER_PLEDGE_WINDOW_S from the first pledge's block time); 0 once it has ended. */
                window_seconds_left: number;
                /**
                 * Format: date-time
                 * @description When the pledge window ends; a set still lacking a kind then is refused and released.
                 */
                window_ends_at: string;
            } | null;
        };
        LoanList: {
            /** @description The borrower, canonical bech32. */
            address: string;
            loans: components["schemas"]["Loan"][];
        };
        Quote: {
            name: string;
            symbol: string;
            asset_id: string;
            /** @description -1 for a whole share (one unit of every kind), else the kind id. */
            kind: number;
            instrument: string;
            /** @description What the desk pays per whole unit; null while it is not buying (`bid_withheld` says why). */
            bid: string | null;
            /** @description What the desk asks per whole unit; null while it is not selling (`ask_withheld` says why). */
            ask: string | null;
            mid: components["schemas"]["Amount"];
            /** @description Why `bid` is null: `price_diverged`, `inventory`, `position_limit`, `pool_share_cap`, `issuer_cap`, `total_cap`, `loss_cooloff`; null while it is quoted. */
            bid_withheld: components["schemas"]["Reason"] | components["schemas"]["JsonNull"];
            /** @description Why `ask` is null (`price_diverged`, `inventory`); null while it is quoted. */
            ask_withheld: components["schemas"]["Reason"] | components["schemas"]["JsonNull"];
        };
        QuoteList: {
            quotes: components["schemas"]["Quote"][];
            /** @description Assets with a pool against the stable denom and a launchpad document that the desk does not quote now, and why. */
            not_quoted: components["schemas"]["NotQuoted"][];
        };
        Offer: {
            settlement_id: number;
            /**
             * @description `accepting`: the accept is signed and not yet in a block; `accepted`; `refused`: the desk will cancel it (at most `DESK_CANCEL_BATCH` a pass); `cancelled`; `left_to_expire`: refused, and left to the chain's expiry sweep (dust, near its expiry, or a cancel the chain would not take).
             * @enum {string}
             */
            verdict: "accepting" | "accepted" | "refused" | "cancelled" | "left_to_expire";
            /** @description Why it was refused; null when accepted. */
            reason: components["schemas"]["Reason"] | components["schemas"]["JsonNull"];
            detail: string | null;
            /** @description The asset of its right legs, when they name one. */
            asset_id: string | null;
            /** @description Its stable-denom leg, when it has one. */
            amount: components["schemas"]["Amount"] | components["schemas"]["JsonNull"];
            /** @description The desk's accept or cancel tx, once committed. */
            tx: string | null;
        };
        OfferList: {
            address: string;
            offers: components["schemas"]["Offer"][];
        };
        NotQuoted: {
            asset_id: string;
            name: string;
            symbol: string;
            reason: components["schemas"]["Reason"];
            detail: string;
        };
        /** @description Names the asset by `asset_id` (as the quotes list it), or by `symbol`; at least one. A symbol names the one quoted asset that carries it (look-alikes are never quoted); with both, they must agree. */
        RfqRequest: {
            /** @description The requester (bech32 or 0x), the proposal's counterparty. */
            address: string;
            asset_id?: string;
            symbol?: string;
            kind: number;
            /**
             * @description The requester's side; sell means the requester sells to the desk.
             * @enum {string}
             */
            side: "sell" | "buy";
            units: components["schemas"]["Amount"];
        } | unknown | unknown;
        RfqAnswer: {
            rfq_id: string;
            settlement_id: number;
            instrument: string;
            asset_id: string;
            kind: number;
            /** @enum {string} */
            side: "sell" | "buy";
            units: components["schemas"]["Amount"];
            price: components["schemas"]["Amount"];
            amount: components["schemas"]["Amount"];
            /** Format: date-time */
            expiry: string;
        };
        /**
         * @description JSON null: a nullable reference is written `oneOf: [{$ref: X}, {$ref: JsonNull}]`, which validates the same under OpenAPI 3.0 `nullable` semantics and ajv's.
         * @enum {string|null}
         */
        JsonNull: null;
        /**
         * @description Why the lender or the desk refused, withheld or limited something: one vocabulary for both services (docs/app-services.md, "Reasons"). `pledge_terms`: a pledge with a wrong flag, two pledges in one tx, or a set not complete within the pledge window. `asset_not_eligible`: the pool is younger than `MARKET_MIN_POOL_AGE_BLOCKS` or holds less than `MARKET_MIN_POOL_RESERVE`, the asset has a releaser who is not trusted (or is the borrower), a kind is outside the bundle the pool trades, or it has no launchpad document (desk). `look_alike`: an asset launched earlier carries the same launchpad document, or a symbol or name that reads the same (case, accents, spacing, look-alike letters and digits aside); only that first one is quoted. `no_pool`: no pool of the asset against the stable denom. `price_window_filling`: the price window (`PRICE_WINDOW_BLOCKS`) is not filled yet: a new pool, or heights the service could neither keep nor read. `price_diverged`: spot and the time-weighted price are further apart than `PRICE_MAX_DIVERGENCE_BPS` (the desk withholds the side a move would pay). `worthless`: worth less than one base unit of the stable denom. `pool_share_cap`: beyond the share of the pool's stable reserve its exposure to one asset may reach (`LENDER_MAX_POOL_SHARE_BPS`, `DESK_MAX_POOL_SHARE_BPS`). `asset_cap`: `LENDER_MAX_PER_ASSET` (a listed asset) or `LENDER_COMMUNITY_MAX_PER_ASSET`. `borrower_cap`: `LENDER_MAX_PER_BORROWER`. `issuer_cap`: `RISK_MAX_PER_ISSUER` (`RISK_COMMUNITY_MAX_PER_ISSUER` for community assets), the lender's and the desk's exposure to one issuer's assets of that tier together. `total_cap`: `LENDER_MAX_TOTAL` or `DESK_MAX_TOTAL` for the listed assets, `LENDER_COMMUNITY_MAX_TOTAL` or `DESK_COMMUNITY_MAX_TOTAL` for the rest. `position_limit`: `DESK_MAX_POSITION` (`DESK_COMMUNITY_MAX_POSITION`). `loss_cooloff`: the asset cost a loss within `RISK_LISTED_LOSS_COOLOFF_S` (a listed asset) or `RISK_LOSS_COOLOFF_S` (a community asset, or any community asset of an issuer whose community assets cost `RISK_ISSUER_LOSS_THRESHOLD`); it ends by itself. `inventory`: the desk lacks the stable denom or the movable units. `escrow_cap`: open RFQs already hold as much of an inventory as they may (`DESK_MAX_ESCROW_BPS`, `DESK_MAX_ESCROW_PER_ADDRESS_BPS`). `rate_limit`: too many RFQs from the address or the client. `trade_cap`: above `DESK_MAX_TRADE`. `worse_than_quote`: an offer that asks more than the bid or gives less than the ask. `not_an_offer`: a proposal to the desk that is not one asset's kinds in equal units against one leg of the stable denom. `not_quoted`: no quote for these rights. `dust`: escrows less than `DESK_DUST` (left to expire, costing no tx). `expiring`: within 10 s of its expiry (left to the chain's sweep). `chain_disagrees`: the chain's copy of a pledge differs from the index. `principal_failed`: the chain refused the principal's payment. `undeliverable`: a sell RFQ for more units than its requester holds and may move (checked as it is recorded and again before the desk proposes, and while its proposal is pending: the desk withdraws a proposal whose requester's units moved): an RFQ reserves the desk's room only for what it can deliver. `reservation_cap`: one requester's, or one client's, outstanding sell RFQs on an asset would hold more than `DESK_MAX_RESERVATION_BPS` of the desk's room on it; it ends as they expire or settle (429 with Retry-After).
         * @enum {string}
         */
        Reason: "pledge_terms" | "asset_not_eligible" | "look_alike" | "no_pool" | "price_window_filling" | "price_diverged" | "worthless" | "pool_share_cap" | "asset_cap" | "borrower_cap" | "issuer_cap" | "total_cap" | "position_limit" | "loss_cooloff" | "inventory" | "escrow_cap" | "rate_limit" | "trade_cap" | "worse_than_quote" | "not_an_offer" | "not_quoted" | "dust" | "expiring" | "chain_disagrees" | "principal_failed" | "undeliverable" | "reservation_cap";
        Error: {
            error: string;
            /** @enum {string} */
            code: "bad_request" | "unauthorized" | "not_found" | "method_not_allowed" | "payload_too_large" | "too_many_requests" | "unavailable" | "internal";
            reason?: components["schemas"]["Reason"];
        };
    };
    responses: {
        /** @description 400 bad_request: a body that is not JSON or not a JSON object, a missing, mistyped, unknown or over-long field, an unknown template, a logo that is not a base64 PNG, a name, symbol or description the refusal table refuses; a malformed `meta_hash`; a missing, repeated or malformed `address`. The message names the field and the rule. */
        BadRequest: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description 401 unauthorized: /api/webhooks without an API key, or with one `API_KEYS_FILE` does not hold. */
        Unauthorized: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description 404 not_found, a well-formed reference to nothing or an unknown path. */
        NotFound: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description 405 method_not_allowed, with `Allow` naming the path's methods. */
        MethodNotAllowed: {
            headers: {
                Allow?: string;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description 413 payload_too_large, a body over 512 KiB. */
        PayloadTooLarge: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description 429 too_many_requests, a rate limit reached; `Retry-After` says when to try again. */
        TooManyRequests: {
            headers: {
                "Retry-After": number;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description 503 unavailable, the app services are starting (or failed to start; /ready says why), or the service asked for has no key here (the lender without LENDER_KEY). */
        Unavailable: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description 500 internal, a server fault; the body never carries its detail. */
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
        /** @description A webhook id (`wh_` and 24 hex). */
        WebhookId: string;
    };
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getQuotes: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The desk's quotes of the latest chain and indexed height (rebuilt when either moves, and at least every DESK_QUOTE_CACHE_MS). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QuoteList"];
                };
            };
            405: components["responses"]["MethodNotAllowed"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    requestQuote: {
        parameters: {
            query?: never;
            header?: {
                /** @description 1 to 200 visible ASCII characters; a retry with the same key answers the same proposal. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RfqRequest"];
            };
        };
        responses: {
            /** @description The committed proposal. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RfqAnswer"];
                };
            };
            400: components["responses"]["BadRequest"];
            405: components["responses"]["MethodNotAllowed"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    listOffers: {
        parameters: {
            query: {
                /** @description The proposer, bech32 with the chain's prefix or the 0x form (EIP-55 when mixed case). */
                address: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The desk's answers to the address's proposals. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OfferList"];
                };
            };
            400: components["responses"]["BadRequest"];
            405: components["responses"]["MethodNotAllowed"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    getLenderTerms: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Terms. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LenderTerms"];
                };
            };
            405: components["responses"]["MethodNotAllowed"];
            503: components["responses"]["Unavailable"];
        };
    };
    listLoans: {
        parameters: {
            query: {
                /** @description The borrower, bech32 with the chain's prefix or the 0x form (EIP-55 when mixed case). */
                address: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The loans of the address. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LoanList"];
                };
            };
            400: components["responses"]["BadRequest"];
            405: components["responses"]["MethodNotAllowed"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    getAppOpenApi: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The OpenAPI 3.0.3 description of /api. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/yaml": string;
                };
            };
            405: components["responses"]["MethodNotAllowed"];
        };
    };
    createMetadata: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MetadataRequest"];
            };
        };
        responses: {
            /** @description Stored (or already stored). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MetaHashAnswer"];
                };
            };
            400: components["responses"]["BadRequest"];
            405: components["responses"]["MethodNotAllowed"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    getMetadata: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description 64 lower-case hex characters. */
                meta_hash: components["schemas"]["MetaHash"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The stored document with its notice. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MetadataDocument"];
                };
            };
            400: components["responses"]["BadRequest"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    listWebhooks: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The key's subscriptions. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookList"];
                };
            };
            401: components["responses"]["Unauthorized"];
            405: components["responses"]["MethodNotAllowed"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    createWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookRequest"];
            };
        };
        responses: {
            /** @description Created; the secret is in this answer only. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookWithSecret"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            405: components["responses"]["MethodNotAllowed"];
            413: components["responses"]["PayloadTooLarge"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    getWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A webhook id (`wh_` and 24 hex). */
                id: components["parameters"]["WebhookId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The subscription. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Webhook"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    deleteWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A webhook id (`wh_` and 24 hex). */
                id: components["parameters"]["WebhookId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeleted"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    pauseWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A webhook id (`wh_` and 24 hex). */
                id: components["parameters"]["WebhookId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Paused. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Webhook"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    resumeWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A webhook id (`wh_` and 24 hex). */
                id: components["parameters"]["WebhookId"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["WebhookResume"];
            };
        };
        responses: {
            /** @description Active again. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Webhook"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    rotateWebhookSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A webhook id (`wh_` and 24 hex). */
                id: components["parameters"]["WebhookId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Rotated. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookWithSecret"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A webhook id (`wh_` and 24 hex). */
                id: components["parameters"]["WebhookId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The attempts. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    redeliverWebhookEvent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A webhook id (`wh_` and 24 hex). */
                id: components["parameters"]["WebhookId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookRedeliver"];
            };
        };
        responses: {
            /** @description Queued. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookRedeliverAnswer"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
}
