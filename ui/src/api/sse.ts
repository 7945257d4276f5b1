/**
 * Server-Sent Events read with fetch rather than EventSource: EventSource cannot send the
 * `Authorization: Bearer` header the server needs when it is bound off-loopback.
 * `SseParser` is the pure part (text chunks in, events out), following the WHATWG rules we need:
 * `event:`/`data:` fields, multi-line data, comments (`:`), and CRLF/LF line ends.
 */
export interface SseEvent {
  event: string;
  data: string;
}

export class SseParser {
  private buffer = '';
  private event = '';
  private data: string[] = [];

  /** Feeds a chunk of the stream; returns the events it completed. */
  push(chunk: string): SseEvent[] {
    this.buffer += chunk;
    const out: SseEvent[] = [];
    let nl: number;
    while ((nl = this.buffer.search(/\r\n|\n|\r/)) >= 0) {
      const line = this.buffer.slice(0, nl);
      const sepLen = this.buffer.startsWith('\r\n', nl) ? 2 : 1;
      // A lone '\r' at the end of a chunk may be the first half of '\r\n': wait for more.
      if (this.buffer[nl] === '\r' && sepLen === 1 && nl === this.buffer.length - 1) break;
      this.buffer = this.buffer.slice(nl + sepLen);
      if (line === '') {
        if (this.data.length > 0) out.push({ event: this.event || 'message', data: this.data.join('\n') });
        this.event = '';
        this.data = [];
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      let value = colon < 0 ? '' : line.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (field === 'event') this.event = value;
      else if (field === 'data') this.data.push(value);
    }
    return out;
  }
}

/** Reads an SSE response body to its end, calling `onEvent` for each event. */
export async function readSse(body: ReadableStream<Uint8Array>, onEvent: (e: SseEvent) => void, signal?: AbortSignal): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const parser = new SseParser();
  const cancel = () => { void reader.cancel().catch(() => undefined); };
  signal?.addEventListener('abort', cancel, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      for (const e of parser.push(decoder.decode(value, { stream: true }))) onEvent(e);
    }
    // An event not closed by a blank line when the stream ends is dropped (as EventSource does).
    for (const e of parser.push(decoder.decode())) onEvent(e);
  } finally {
    signal?.removeEventListener('abort', cancel);
  }
}
