import { describe, expect, it } from 'vitest';
import { SseParser } from '../sse';

describe('SseParser', () => {
  it('reads events split anywhere across chunks, with any line ending', () => {
    const text =
      ': comment\r\nevent: delta\r\ndata: {"a":1}\r\n\r\ndata: line one\ndata: line two\n\nid: 7\rdata: [DONE]\r\r';
    for (const size of [1, 3, 7, text.length]) {
      const parser = new SseParser();
      const events = [];
      for (let i = 0; i < text.length; i += size) events.push(...parser.push(text.slice(i, i + size)));
      events.push(...parser.end());
      expect(events).toEqual([
        { event: 'delta', data: '{"a":1}' },
        { event: null, data: 'line one\nline two' },
        { event: null, data: '[DONE]' },
      ]);
    }
  });

  it('ends a last event that has no blank line after it, and ignores events without data', () => {
    const parser = new SseParser();
    expect(parser.push('event: ping\n\ndata:x')).toEqual([]);
    expect(parser.end()).toEqual([{ event: null, data: 'x' }]);
  });
});
