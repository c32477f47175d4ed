// Newline-delimited JSON from a streamed body (watch responses): yields one parsed value per line
// as soon as the line is complete, however the bytes were chunked.
export async function* readLines(body: ReadableStream<Uint8Array>, signal?: AbortSignal): AsyncGenerator<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  const onAbort = () => void reader.cancel().catch(() => undefined);
  signal?.addEventListener('abort', onAbort);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffered += decoder.decode(value, { stream: true });
      let nl: number;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, nl).trim();
        buffered = buffered.slice(nl + 1);
        if (line) yield line;
      }
    }
    buffered += decoder.decode();
    if (buffered.trim()) yield buffered.trim();
  } finally {
    signal?.removeEventListener('abort', onAbort);
    // Stops the underlying request when the consumer leaves early.
    await reader.cancel().catch(() => undefined);
  }
}

export async function* readJsonLines<T = unknown>(body: ReadableStream<Uint8Array>, signal?: AbortSignal): AsyncGenerator<T> {
  for await (const line of readLines(body, signal)) yield JSON.parse(line) as T;
}
