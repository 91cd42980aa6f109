// While a request waits for its connection. undici takes the call's abort signal into
// account only once the request has a connected socket: a connect to a host that drops
// SYNs (a firewall, a NAT) would keep the call waiting until the kernel gives up (~130 s),
// whatever its deadline. So the request is raced against the signal, and whether it got a
// connection is recorded, for the failure to say "the connection was not accepted".
// The connect itself is ended by the agent's connect timeout (agent.ts), which frees its slot.
import type { Dispatcher } from 'undici';
import type { Progress } from './progress.ts';

/** The dispatcher, noting in `progress.connected` when the request is written on a connected socket. */
export function notingConnection(dispatcher: Dispatcher, progress: Progress): Dispatcher {
  return dispatcher.compose((dispatch) => (options, handler) => {
    const noted: Dispatcher.DispatchHandler = {
      onRequestStart: (controller, context) => {
        progress.connected = true;
        handler.onRequestStart?.(controller, context);
      },
      onRequestUpgrade: (...args) => handler.onRequestUpgrade?.(...args),
      onResponseStart: (...args) => handler.onResponseStart?.(...args),
      onResponseData: (...args) => handler.onResponseData?.(...args),
      onResponseEnd: (...args) => handler.onResponseEnd?.(...args),
      onResponseError: (...args) => handler.onResponseError?.(...args),
    };
    return dispatch(options, noted);
  });
}

/**
 * The response, or a rejection as soon as `signal` aborts (the deadline, a cancel) — even
 * while the connect is pending. A response that comes after all is dropped.
 */
export function untilAborted(pending: Promise<Dispatcher.ResponseData>, signal: AbortSignal): Promise<Dispatcher.ResponseData> {
  if (signal.aborted) {
    void pending.then(
      (late) => late.body.destroy(),
      () => {},
    );
    return Promise.reject(signal.reason as Error);
  }
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      // undici ends the request itself once its connect ends (or fails): nothing waits on it here.
      void pending.then(
        (late) => late.body.destroy(),
        () => {},
      );
      reject(signal.reason as Error);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    pending.then(
      (response) => {
        signal.removeEventListener('abort', onAbort);
        resolve(response);
      },
      (err: Error) => {
        signal.removeEventListener('abort', onAbort);
        reject(err);
      },
    );
  });
}
