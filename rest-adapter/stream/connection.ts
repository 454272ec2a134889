/**
 * One open stream: its filter, how far it has been served, and the writer that keeps its
 * unsent bytes bounded. Everything a connection is sent goes through `send`; a client that
 * lets more than `maxBufferBytes` pile up is sent `event: close` (code slow_client) and
 * ended: it resumes from its last event id.
 */
import type { Response } from 'express';
import { frameClose, frameEvent, HEARTBEAT_FRAME, type StreamCloseCode, type StreamEvent } from './events';
import type { StreamFilter } from './filter';
import { comparePositions, endOfHeight, laterOf, type StreamPosition } from './position';

/** How long an ended stream may take to flush its last bytes before its socket is destroyed. */
export const CLOSE_GRACE_MS = 10_000;

/** The part of a response the writer uses (an Express Response is one). */
export type StreamSink = Pick<Response, 'write' | 'end' | 'writableLength' | 'destroyed' | 'once' | 'destroy'>;

export class StreamConnection {
  private closed = false;
  private lastWriteAt = Date.now();

  constructor(
    private readonly sink: StreamSink,
    readonly filter: StreamFilter,
    /** the position everything up to which this client has (its resume point) */
    private served: StreamPosition,
    private readonly maxBufferBytes: number,
  ) {}

  get isOpen(): boolean {
    return !this.closed && !this.sink.destroyed;
  }

  get position(): StreamPosition {
    return this.served;
  }

  /** Bytes written but not yet taken by the client. */
  get unsentBytes(): number {
    return this.sink.writableLength;
  }

  /**
   * Sends the events after this connection's position, then marks `through` (a height)
   * as served. False when the connection is (or has now been) closed.
   */
  send(events: readonly StreamEvent[], through?: number): boolean {
    if (!this.isOpen) return false;
    let text = '';
    for (const event of events)
      if (comparePositions(event.position, this.served) > 0) {
        text += frameEvent(event);
        this.served = event.position;
      }
    if (through !== undefined) this.served = laterOf(this.served, endOfHeight(through));
    if (text) this.write(text);
    return this.checkBuffer();
  }

  /** A comment when nothing was written for `heartbeatMs`. */
  heartbeat(now: number, heartbeatMs: number): void {
    if (this.isOpen && now - this.lastWriteAt >= heartbeatMs) {
      this.write(HEARTBEAT_FRAME);
      this.checkBuffer();
    }
  }

  /** Writes the final event and ends the response; the socket is destroyed if it cannot flush within CLOSE_GRACE_MS. */
  close(code: StreamCloseCode, message: string): void {
    if (!this.isOpen) return;
    this.closed = true;
    this.sink.write(frameClose(code, message));
    this.sink.end();
    const timer = setTimeout(() => this.sink.destroy(), CLOSE_GRACE_MS);
    timer.unref();
    this.sink.once('close', () => clearTimeout(timer));
  }

  write(text: string): void {
    this.sink.write(text);
    this.lastWriteAt = Date.now();
  }

  /** Closes a client whose unsent bytes exceed the bound; false when it did. */
  private checkBuffer(): boolean {
    if (this.sink.writableLength <= this.maxBufferBytes) return true;
    this.close('slow_client', 'the client did not read fast enough; reconnect with Last-Event-ID to resume');
    return false;
  }
}
