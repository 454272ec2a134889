/** The bounds on open streams: in total and per client address. */

export type Refusal = 'total' | 'per_client';

export class ConnectionLimits {
  private total = 0;
  private perClient = new Map<string, number>();

  constructor(
    private readonly maxTotal: number,
    private readonly maxPerClient: number,
  ) {}

  /** Takes a slot for `client`, or says which bound refuses it. */
  acquire(client: string): Refusal | undefined {
    if (this.total >= this.maxTotal) return 'total';
    const mine = this.perClient.get(client) ?? 0;
    if (mine >= this.maxPerClient) return 'per_client';
    this.total++;
    this.perClient.set(client, mine + 1);
    return undefined;
  }

  /** Gives back a slot `acquire` took. */
  release(client: string): void {
    const mine = this.perClient.get(client) ?? 0;
    if (mine <= 0) return;
    this.total--;
    if (mine === 1) this.perClient.delete(client);
    else this.perClient.set(client, mine - 1);
  }

  get open(): number {
    return this.total;
  }
}
