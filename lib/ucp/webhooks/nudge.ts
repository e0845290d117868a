/**
 * How an enqueue wakes this process's delivery worker. On globalThis: Next.js bundles the boot
 * step that starts the worker and the route handlers that enqueue apart, each with its own copy
 * of this module.
 */
const slot = globalThis as unknown as { __ucpWebhookNudge?: () => void };

export function onWebhookNudge(wake: (() => void) | undefined): void {
  slot.__ucpWebhookNudge = wake;
}

/** Asks the worker to look for due events now rather than at its next poll. */
export function nudgeWebhookWorker(): void {
  slot.__ucpWebhookNudge?.();
}
