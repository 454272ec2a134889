/**
 * One open stream: its filter, how far it has been served, and the writer that keeps its
 * unsent bytes bounded. Everything a connection is sent goes through `send`; a client that
 * still holds more than `maxBufferBytes` of earlier writes when new events come is sent
 * `event: close` (code slow_client) and ended: it resumes from its last event id. What one
 * client can hold is so at most the bound plus one batch (HEIGHTS_PER_READ heights of its filter).
 */
import type { Response } from 'express';
import { frameClose, frameEvent, HEARTBEAT_FRAME, type StreamCloseCode, type StreamEvent } from './events';
import type { StreamFilter } from './filter';
import { DEFAULT_STREAM_OPTIONS } from './options';
import { comparePositions, endOfHeight, laterOf, type StreamPosition } from './position';

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
    /** how long an ended stream may take to flush its last bytes before its socket is destroyed (StreamOptions.closeGraceMs) */
    private readonly closeGraceMs = DEFAULT_STREAM_OPTIONS.closeGraceMs,
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
    if (!this.isOpen || !this.keepingUp()) return false;
    let text = '';
    for (const event of events)
      if (comparePositions(event.position, this.served) > 0) {
        text += frameEvent(event);
        this.served = event.position;
      }
    if (through !== undefined) this.served = laterOf(this.served, endOfHeight(through));
    if (text) this.write(text);
    return true;
  }

  /** A comment when nothing was written for `heartbeatMs`. */
  heartbeat(now: number, heartbeatMs: number): void {
    if (this.isOpen && now - this.lastWriteAt >= heartbeatMs && this.keepingUp()) this.write(HEARTBEAT_FRAME);
  }

  /** Writes the final event and ends the response; the socket is destroyed if it cannot flush within closeGraceMs. */
  close(code: StreamCloseCode, message: string): void {
    if (!this.isOpen) return;
    this.closed = true;
    this.sink.write(frameClose(code, message));
    this.sink.end();
    const timer = setTimeout(() => this.sink.destroy(), this.closeGraceMs);
    timer.unref();
    this.sink.once('close', () => clearTimeout(timer));
  }

  write(text: string): void {
    this.sink.write(text);
    this.lastWriteAt = Date.now();
  }

  /**
   * Whether the client has taken what it was sent, up to the bound; closes it when not.
   * Checked before a write, so one large height (a burst) never counts against a client
   * that reads: what it measures is bytes left from earlier writes.
   */
  private keepingUp(): boolean {
    if (this.sink.writableLength <= this.maxBufferBytes) return true;
    this.close('slow_client', 'the client did not read fast enough; reconnect with Last-Event-ID to resume');
    return false;
  }
}
