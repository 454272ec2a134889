/**
 * How a chain query fails, as classes a caller maps to its own meaning (see ChainQueryClient):
 * the app answered with an error code (AbciQueryError; QueryNotServed when the binary does not
 * serve the path at all), or the chain could not be asked (ChainUnavailable).
 */

/** The `sdk` code the Cosmos SDK answers for a query path it does not route (ErrUnknownRequest). */
const SDK_UNKNOWN_REQUEST = 6;

/** A query answered with a non-zero code (the app's error). */
export class AbciQueryError extends Error {
  constructor(
    readonly path: string,
    readonly code: number,
    readonly codespace: string,
    readonly log: string,
  ) {
    super(`abci_query ${path} failed with ${codespace}/${code}: ${log}`);
    this.name = 'AbciQueryError';
  }

  /**
   * The query's module answered with its own error (its codespace, e.g. asset not found): an
   * answer about the state. `sdk` or empty codespaces are the node's (a pruned height, a panic).
   */
  get fromModule(): boolean {
    return this.codespace !== 'sdk' && this.codespace !== '';
  }
}

/** The binary does not serve this query path (`sdk` code 6, an older chain). */
export class QueryNotServed extends AbciQueryError {
  constructor(path: string, log: string) {
    super(path, SDK_UNKNOWN_REQUEST, 'sdk', log);
    this.message = `the chain does not serve ${path}`;
    this.name = 'QueryNotServed';
  }
}

/** The error an answer with a non-zero code stands for. */
export function answerError(path: string, code: number, codespace: string, log: string): AbciQueryError {
  return codespace === 'sdk' && code === SDK_UNKNOWN_REQUEST
    ? new QueryNotServed(path, log)
    : new AbciQueryError(path, code, codespace, log);
}

/**
 * The chain could not be asked: the RPC unreachable, a timeout, an HTTP or JSON-RPC error, a body
 * that is no abci_query answer, or an answer at another height than the one asked.
 */
export class ChainUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ChainUnavailable';
  }
}

/**
 * No answer came at all (the RPC refused or dropped the connection, a timeout, an HTTP error
 * status, a body that is no JSON): a busy node, not a statement about the height asked, so
 * worth asking again soon. Its name stays ChainUnavailable, as reports print it.
 */
export class ChainUnreachable extends ChainUnavailable {}
