const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const;

/** '30s' -> 30000. The schema has already checked the format. */
export function durationToMs(value: string): number {
  const m = /^(\d+)(ms|s|m|h)$/.exec(value);
  if (!m) throw new Error(`not a duration: ${value}`);
  return Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS];
}
