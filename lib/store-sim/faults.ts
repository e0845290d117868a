import { z } from 'zod';

/**
 * Which shop requests a fault hits. Paths match either the full path
 * (`/shops/demo.example/products.json`) or the shop-relative one (`/products.json`).
 */
export interface FaultMatch {
  domain?: string;
  method?: string;
  pathPrefix?: string;
  pathRegex?: RegExp | string;
}

interface FaultBase {
  match?: FaultMatch;
  /** How many matching requests the fault hits; 1 when absent. */
  times?: number;
}

export type Fault = FaultBase &
  (
    | { kind: 'status'; status: number; body?: unknown; retryAfterSeconds?: number }
    | { kind: 'latency'; delayMs: number }
    /** Destroys the socket without an answer. */
    | { kind: 'drop' }
  );

/** The same faults as JSON, for `POST /_sim/faults`. */
const matchSchema = z.strictObject({
  domain: z.string().optional(),
  method: z.string().optional(),
  pathPrefix: z.string().optional(),
  pathRegex: z
    .string()
    .refine((source) => {
      try {
        new RegExp(source);
        return true;
      } catch {
        return false;
      }
    }, 'is not a valid regular expression')
    .optional(),
});
const base = { match: matchSchema.optional(), times: z.int().min(1).optional() };
const faultSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    ...base,
    kind: z.literal('status'),
    status: z.int().min(200).max(599),
    body: z.unknown().optional(),
    retryAfterSeconds: z.number().min(0).optional(),
  }),
  z.strictObject({ ...base, kind: z.literal('latency'), delayMs: z.int().min(0).max(600_000) }),
  z.strictObject({ ...base, kind: z.literal('drop') }),
]);
export const faultListSchema = z.union([faultSchema, z.array(faultSchema)]);

interface ArmedFault {
  fault: Fault;
  regex?: RegExp;
  remaining: number;
}

export interface FaultTarget {
  method: string;
  domain: string;
  fullPath: string;
  shopPath: string;
}

function matches(armed: ArmedFault, target: FaultTarget): boolean {
  const match = armed.fault.match ?? {};
  if (match.domain && match.domain !== target.domain) return false;
  if (match.method && match.method.toUpperCase() !== target.method) return false;
  const paths = [target.fullPath, target.shopPath];
  if (match.pathPrefix && !paths.some((p) => p.startsWith(match.pathPrefix!))) return false;
  if (armed.regex && !paths.some((p) => armed.regex!.test(p))) return false;
  return true;
}

/** Faults wait in arrival order; each matching request uses up one hit of the first that fits. */
export class FaultQueue {
  private armed: ArmedFault[] = [];

  add(fault: Fault): void {
    const { pathRegex } = fault.match ?? {};
    this.armed.push({
      fault,
      regex: pathRegex === undefined ? undefined : new RegExp(pathRegex),
      remaining: fault.times ?? 1,
    });
  }

  take(target: FaultTarget): Fault | undefined {
    const armed = this.armed.find((a) => matches(a, target));
    if (!armed) return undefined;
    armed.remaining -= 1;
    if (armed.remaining === 0) this.armed.splice(this.armed.indexOf(armed), 1);
    return armed.fault;
  }

  clear(): void {
    this.armed = [];
  }
}
