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
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
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
        };
        Loan: {
            /** @description L and the loan's lowest pledge id. */
            id: string;
            /** @description The symbol of the asset's launchpad document; null when the launchpad has none. */
            symbol: string | null;
            asset_id: string;
            units: components["schemas"]["Amount"];
            principal: components["schemas"]["Amount"];
            ltv_bps: number | null;
            /** @description The tx that paid the principal; null while opening. */
            open_tx: string | null;
            /** @enum {string} */
            status: "opening" | "active" | "repaid" | "liquidated" | "cancelled";
            /** @description The repayment's accept + release tx, or the liquidation's exercise tx. */
            close_tx: string | null;
            routed_income: components["schemas"]["Amount"];
            /** @description The loan's encumbrance ids, by kind. */
            pledges: number[];
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
            /** @description What the desk pays per whole unit; null while it is not buying (low stable inventory, its position limit, or a pool price falling away from its average). */
            bid: string | null;
            /** @description What the desk asks per whole unit; null while it is not selling (low unit inventory, or a pool price rising away from its average). */
            ask: string | null;
            mid: components["schemas"]["Amount"];
        };
        QuoteList: {
            quotes: components["schemas"]["Quote"][];
        };
        RfqRequest: {
            /** @description The requester (bech32 or 0x), the proposal's counterparty. */
            address: string;
            symbol: string;
            kind: number;
            /**
             * @description The requester's side; sell means the requester sells to the desk.
             * @enum {string}
             */
            side: "sell" | "buy";
            units: components["schemas"]["Amount"];
        };
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
        Error: {
            error: string;
            /** @enum {string} */
            code: "bad_request" | "not_found" | "method_not_allowed" | "payload_too_large" | "too_many_requests" | "unavailable" | "internal";
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
    parameters: never;
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
}
