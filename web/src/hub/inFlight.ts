// At most `max` calls in flight at once; the others wait their turn in order. The server closes
// a hub connection with more than 64 invocations waiting (server/hub/transport.ts,
// maxPendingInvocations), and a summary of 100 targets registers for each of them at once:
// without this the console lost its connection, and every live update, on such a page.
export function inFlightLimit(max: number): <T>(call: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: (() => void)[] = [];
  const release = () => {
    running--;
    waiting.shift()?.();
  };
  return <T>(call: () => Promise<T>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const start = () => {
        running++;
        let result: Promise<T>;
        try {
          result = call();
        } catch (err) {
          result = Promise.reject(err);
        }
        result.then(resolve, reject).finally(release);
      };
      if (running < max) start();
      else waiting.push(start);
    });
}
