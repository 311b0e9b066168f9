/**
 * A response body passed through as it arrives, with a bound on the size of one message: the whole
 * body for `application/json`, one event (up to a blank line) for `text/event-stream`. Over the
 * bound the body errors with `tooLarge(bytes)`, and the rest is not read. `onEnd` is called once
 * when the body ends or breaks (with the error).
 */
export function boundedBody(
  body: ReadableStream<Uint8Array>,
  o: {
    readonly maxMessageBytes: number;
    readonly eventStream: boolean;
    readonly tooLarge: (bytes: number) => Error;
    /** The error the reader of the body gets when the connection breaks (`cause`: what broke it). */
    readonly broke: (cause: Error) => Error;
    readonly onEnd: (error?: Error) => void;
  },
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let size = 0;
  let last = -1;
  let ended = false;
  const end = (error?: Error) => {
    if (ended) return;
    ended = true;
    o.onEnd(error);
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } catch (e) {
        const error = e instanceof Error ? e : new Error(String(e));
        end(error);
        controller.error(o.broke(error));
        return;
      }
      if (chunk.done) {
        end();
        controller.close();
        return;
      }
      const bytes = chunk.value;
      size = o.eventStream ? sinceEventEnd(bytes, size, last) : size + bytes.byteLength;
      last = bytes.byteLength ? bytes[bytes.byteLength - 1] : last;
      if (size > o.maxMessageBytes) {
        const error = o.tooLarge(size);
        end(error);
        controller.error(error);
        void reader.cancel(error).catch(() => undefined);
        return;
      }
      controller.enqueue(bytes);
    },
    cancel(reason) {
      end(reason instanceof Error ? reason : undefined);
      return reader.cancel(reason);
    },
  });
}

/** Bytes of the event in progress after `chunk`: counting restarts after each blank line ("\n\n"). */
function sinceEventEnd(chunk: Uint8Array, before: number, previousLast: number): number {
  let start = 0;
  for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) {
    const prev = i > 0 ? chunk[i - 1] : previousLast;
    const prev2 = i > 1 ? chunk[i - 2] : i === 1 ? previousLast : -1;
    // "\n\n" or "\n\r\n" ends an event.
    if (prev === 10 || (prev === 13 && prev2 === 10)) start = i + 1;
  }
  return start === 0 ? before + chunk.byteLength : chunk.byteLength - start;
}
