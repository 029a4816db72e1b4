// Server-sent events as the WHATWG spec reads them (events end at a blank line — LF, CRLF or CR —,
// `data:` lines join with newlines, comments and other fields are skipped): one parser for the
// server reading a model's stream and the web app reading Titan's.

export type SseEvent = { event: string | null; data: string };

/** Parses text as it arrives; call `push` per chunk and `end` once, each answering complete events. */
export class SseParser {
  private buffer = '';
  private data: string[] = [];
  private event: string | null = null;

  push(text: string): SseEvent[] {
    this.buffer += text;
    const out: SseEvent[] = [];
    for (;;) {
      const m = /\r\n|\n|\r/.exec(this.buffer);
      // A CR at the very end may be the first half of a CRLF: wait for the next chunk.
      if (!m || (m[0] === '\r' && m.index === this.buffer.length - 1)) break;
      const line = this.buffer.slice(0, m.index);
      this.buffer = this.buffer.slice(m.index + m[0].length);
      const event = this.line(line);
      if (event) out.push(event);
    }
    return out;
  }

  end(): SseEvent[] {
    const out = this.buffer ? this.push('\n') : [];
    const last = this.line('');
    return last ? [...out, last] : out;
  }

  private line(line: string): SseEvent | null {
    if (line === '') {
      if (this.data.length === 0) {
        this.event = null;
        return null;
      }
      const event = { event: this.event, data: this.data.join('\n') };
      this.data = [];
      this.event = null;
      return event;
    }
    if (line.startsWith(':')) return null;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.data.push(value);
    else if (field === 'event') this.event = value;
    return null;
  }
}
