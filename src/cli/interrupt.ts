// The commands that run until the user stops them (`logs -f`, `get -w`, `port-forward`): the first
// SIGINT or SIGTERM ends them cleanly (exit 0, as kubectl's end on Ctrl-C); once they stop
// listening, a later signal has its default effect again.

export interface Interrupt {
  /** Resolves at the first SIGINT or SIGTERM. */
  readonly signalled: Promise<void>;
  /** Whether one came. */
  readonly fired: boolean;
  /** Stops listening. */
  dispose(): void;
}

export function listenForInterrupt(): Interrupt {
  let fire: () => void = () => undefined;
  const signalled = new Promise<void>((resolve) => (fire = resolve));
  const state = { fired: false };
  const onSignal = () => {
    state.fired = true;
    fire();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    signalled,
    get fired() {
      return state.fired;
    },
    dispose() {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}
