interface SchedulerWithYield {
  yield?: () => Promise<void>;
}

/**
 * Ends the current task and resolves at the start of a new one, so the browser can paint and answer
 * input in between (`scheduler.yield` where the browser has it, which keeps this work ahead of others).
 */
export function yieldToMain(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: SchedulerWithYield }).scheduler;
  if (scheduler?.yield) return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}
