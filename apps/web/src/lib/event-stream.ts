// POSTs to a route that answers server-sent events and hands each event to the caller as it arrives.
// Goes through the protected client (token refresh, business code, logout on 401), so a refusal
// before the stream starts (400, 409, 429…) is an ordinary API error for describeApiFailure.
import { SseParser, type SseEvent } from '@titan/contracts';
import { isAxiosError } from 'axios';

import { protectedClient } from './protected-client';

async function textOf(stream: ReadableStream<Uint8Array>): Promise<string> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    text += decoder.decode(value, { stream: true });
  }
}

export async function postEventStream(
  path: string,
  body: unknown,
  onEvent: (event: SseEvent) => void,
  signal?: AbortSignal,
): Promise<void> {
  let stream: ReadableStream<Uint8Array>;
  try {
    const response = await protectedClient.post<ReadableStream<Uint8Array>>(path, body, {
      headers: { Accept: 'text/event-stream' },
      responseType: 'stream',
      // A generation takes as long as the model writes; the server times the model out.
      timeout: 0,
      signal,
    });
    stream = response.data;
  } catch (error) {
    // The refusal's body arrives as a stream too: read it as the JSON envelope it is.
    const data: unknown = isAxiosError(error) ? error.response?.data : undefined;
    if (isAxiosError(error) && error.response && data instanceof ReadableStream) {
      const text = await textOf(data as ReadableStream<Uint8Array>).catch(() => '');
      try {
        error.response.data = JSON.parse(text);
      } catch {
        error.response.data = text;
      }
    }
    throw error;
  }
  const parser = new SseParser();
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    for (const event of parser.push(decoder.decode(value, { stream: true }))) onEvent(event);
  }
  for (const event of [...parser.push(decoder.decode()), ...parser.end()]) onEvent(event);
}
