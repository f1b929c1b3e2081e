/**
 * Whether a callback scheduled (setImmediate) just after `work` starts runs before `work` is done,
 * i.e. whether `work` lets the event loop turn, and so let a request in, while it runs. `work` is
 * awaited either way.
 */
export async function otherWorkRunsDuring(work: () => Promise<unknown>): Promise<boolean> {
  let done = false;
  const running = work().then(() => {
    done = true;
  });
  const ranBeforeTheEnd = await new Promise<boolean>((resolve) => setImmediate(() => resolve(!done)));
  await running;
  return ranBeforeTheEnd;
}
