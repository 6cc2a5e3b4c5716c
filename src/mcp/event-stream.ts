/**
 * The wrapper of the standalone GET event stream. Bun holds a streaming response's headers back until
 * its first body chunk, and that stream may stay silent for minutes: an SSE comment up front lets the
 * client see the 200 at once. `onEnd` runs once, when the stream ends or is cancelled, or at once when
 * the answer is not a stream.
 */
const streamOpening = new TextEncoder().encode(": stream open\n\n");

export function openedStream(response: Response, onEnd: () => void): Response {
  if (response.status !== 200 || !response.body || !response.headers.get("content-type")?.startsWith("text/event-stream")) {
    onEnd();
    return response;
  }
  const reader = response.body.getReader();
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    onEnd();
  };
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(streamOpening);
    },
    async pull(controller) {
      const { done, value } = await reader.read().catch((error: unknown) => {
        end();
        throw error;
      });
      if (done) {
        end();
        controller.close();
      } else controller.enqueue(value);
    },
    cancel(reason) {
      end();
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, headers: response.headers });
}
