/**
 * Flows: multi-block scripts (launch, loan, RFQ, bridge...). A flow runs at
 * most one step per block; a step submits this block's txs and the next step
 * reads their outcome from the committed chain, so a flow never acts on an
 * assumption that the chain did not confirm.
 */
import type { Ctx, Flow } from './context';

export type { Flow } from './context';

/** What a step asks for: advance (undefined), retry next block ('wait'), or end the flow ('stop'). */
export type StepResult = void | 'wait' | 'stop';
export type Step<S> = (ctx: Ctx, state: S) => Promise<StepResult> | StepResult;

/** A one-shot script: its steps in order, sharing one state object. */
export class Script<S> implements Flow {
  private index = 0;

  constructor(
    readonly name: string,
    private readonly state: S,
    private readonly steps: Step<S>[],
  ) {}

  get active(): boolean {
    return this.index < this.steps.length;
  }

  async step(ctx: Ctx): Promise<void> {
    if (!this.active) return;
    const result = await this.steps[this.index](ctx, this.state);
    if (result === 'stop') this.index = this.steps.length;
    else if (result !== 'wait') this.index += 1;
  }
}

export function script<S>(name: string, state: S, steps: Step<S>[]): Script<S> {
  return new Script(name, state, steps);
}

/**
 * A recurring flow: builds a fresh cycle (a Script) whenever the previous one
 * ends, after a seeded pause of `gap` blocks. `make` may answer null when a
 * cycle is not possible yet (e.g. its asset is not launched); it is asked again
 * next block.
 */
export class Loop implements Flow {
  private current: Flow | null = null;
  private resumeAt = 0;
  private cycle = 0;

  constructor(
    readonly name: string,
    private readonly make: (ctx: Ctx, cycle: number) => Flow | null,
    private readonly gap: [number, number],
  ) {}

  get active(): boolean {
    return true;
  }

  async step(ctx: Ctx): Promise<void> {
    if (!this.current) {
      if (ctx.height < this.resumeAt) return;
      this.current = this.make(ctx, this.cycle);
      if (!this.current) return;
      this.cycle += 1;
    }
    await this.current.step(ctx);
    if (!this.current.active) this.scheduleNext(ctx);
  }

  private scheduleNext(ctx: Ctx): void {
    this.current = null;
    this.resumeAt = ctx.height + ctx.rng.int(this.gap[0], this.gap[1]);
  }
}
