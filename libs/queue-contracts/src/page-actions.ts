/**
 * Page actions (docs/api.md, "Page actions"): what a caller asks a browser to do on the page
 * before it is read, in order, and what they bring back. Types only, like scrape-options.ts.
 */
export const ACTION_TYPES = [
  'wait',
  'click',
  'write',
  'press',
  'scroll',
  'screenshot',
  'execute_javascript',
  'scrape',
] as const;
export type ActionType = (typeof ACTION_TYPES)[number];

/** Key names `press` takes besides a single printable character. */
export const NAMED_KEYS = [
  'Enter',
  'Tab',
  'Escape',
  'Backspace',
  'Delete',
  'ArrowUp',
  'ArrowDown',
  'ArrowLeft',
  'ArrowRight',
  'Home',
  'End',
  'PageUp',
  'PageDown',
  'Space',
] as const;

export type PageAction =
  | { type: 'wait'; milliseconds: number }
  | { type: 'wait'; selector: string }
  | { type: 'click'; selector: string; all?: boolean }
  | { type: 'write'; selector: string; text: string }
  | { type: 'press'; key: string }
  | { type: 'scroll'; direction: 'up' | 'down'; amount?: number | 'bottom' }
  | { type: 'screenshot'; full_page?: boolean }
  | { type: 'execute_javascript'; script: string }
  | { type: 'scrape' };

/** The bounds every page's actions are held to (ACTIONS_* settings). */
export interface ActionLimits {
  maxCount: number;
  /** Sum of the `wait` actions' milliseconds. */
  maxWaitMs: number;
  /** UTF-8 bytes of one `execute_javascript` script. */
  maxScriptBytes: number;
  /** PNG bytes of all of a page's action screenshots together. */
  maxScreenshotBytes: number;
}

export type JsonType = 'null' | 'boolean' | 'number' | 'string' | 'array' | 'object';

export interface ActionResults {
  /** Base64 PNGs, one per `screenshot` action, in order. */
  screenshots: string[];
  /** One per `execute_javascript` action: the JSON type of its return value and the value. */
  javascript_returns: { type: JsonType; value: unknown }[];
  /** One per `scrape` action: the page's URL and HTML at that point. */
  scrapes: { url: string; html: string }[];
}
