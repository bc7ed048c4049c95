// Reading parsed YAML without trusting its shape: a missing or mistyped field reads as empty.

export type Obj = Record<string, unknown>;

export const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
export const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
export const str = (v: unknown): string | undefined =>
  typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;
export const at = (v: unknown, ...path: string[]): unknown => path.reduce((o, key) => obj(o)[key], v);
