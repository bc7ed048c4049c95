import Module from 'node:module';
import { dirname, join } from 'node:path';

/**
 * linkedom's EventTarget, which every node of its DOM extends, makes each node a listener map in a
 * WeakMap when it is built: text nodes and attributes too, for documents nobody listens to. That
 * cost a small server-rendered page a fifth of its content work (docs/decisions.md, "Content
 * threads").
 * This one makes the map when a listener is first added and behaves the same otherwise.
 */
interface DomEvent {
  type: string;
  bubbles: boolean;
  cancelBubble: boolean;
  defaultPrevented: boolean;
  eventPhase: number;
  currentTarget?: unknown;
  target?: unknown;
  _stopImmediatePropagationFlag: boolean;
  _path: { currentTarget: LazyEventTarget; target: LazyEventTarget }[];
  readonly NONE: number;
  readonly CAPTURING_PHASE: number;
  readonly AT_TARGET: number;
  readonly BUBBLING_PHASE: number;
}
type Listener = ((event: DomEvent) => void) | { handleEvent(event: DomEvent): void };
type ListenerOptions = { once?: boolean } | boolean | undefined;

const listenersOf = new WeakMap<object, Map<string, Map<Listener, ListenerOptions>>>();

/** Calls the target's listeners for the event; true once propagation was stopped. */
function notify(event: DomEvent, { currentTarget, target }: DomEvent['_path'][number]): boolean {
  const listeners = listenersOf.get(currentTarget)?.get(event.type);
  if (!listeners) return false;
  event.eventPhase = currentTarget === target ? event.AT_TARGET : event.BUBBLING_PHASE;
  event.currentTarget = currentTarget;
  event.target = target;
  for (const [listener, options] of listeners) {
    if (options && typeof options === 'object' && options.once) listeners.delete(listener);
    if (typeof listener === 'function') listener.call(target, event);
    else listener.handleEvent(event);
    if (event._stopImmediatePropagationFlag) break;
  }
  delete event.currentTarget;
  delete event.target;
  return event.cancelBubble;
}

/** The targets an event dispatched at `target` reaches: itself, then its parents if it bubbles. */
function pathFrom(target: LazyEventTarget, bubbles: boolean): DomEvent['_path'] {
  const path: DomEvent['_path'] = [];
  for (let node: unknown = target; node;) {
    const step = node as LazyEventTarget;
    if (typeof step.dispatchEvent === 'function') path.push({ currentTarget: step, target });
    node = bubbles && typeof step._getParent === 'function' ? step._getParent() : null;
  }
  return path;
}

export class LazyEventTarget {
  /** The next target a bubbling event reaches (Node overrides it). */
  _getParent(): unknown {
    return null;
  }

  addEventListener(type: string, listener: Listener, options?: ListenerOptions): void {
    let byType = listenersOf.get(this);
    if (!byType) listenersOf.set(this, (byType = new Map<string, Map<Listener, ListenerOptions>>()));
    let listeners = byType.get(type);
    if (!listeners) byType.set(type, (listeners = new Map<Listener, ListenerOptions>()));
    listeners.set(listener, options);
  }

  removeEventListener(type: string, listener: Listener): void {
    const byType = listenersOf.get(this);
    const listeners = byType?.get(type);
    if (listeners?.delete(listener) && listeners.size === 0) byType!.delete(type);
  }

  dispatchEvent(event: DomEvent): boolean {
    event.eventPhase = event.CAPTURING_PHASE;
    event._path.push(...pathFrom(this, event.bubbles));
    event._path.some((step) => notify(event, step));
    event._path = [];
    event.eventPhase = event.NONE;
    return !event.defaultPrevented;
  }
}

/**
 * Puts LazyEventTarget in the module cache where linkedom requires its EventTarget (its CommonJS
 * build, which this project loads), before linkedom loads: html-document.ts imports this first.
 * Where linkedom has loaded already, or where the cache is not Node's (jest's own registry),
 * linkedom keeps its own.
 */
const linkedomEventTarget = join(dirname(require.resolve('linkedom')), 'interface', 'event-target.js');
if (!require.cache[linkedomEventTarget]) {
  const replacement = new Module(linkedomEventTarget);
  replacement.filename = linkedomEventTarget;
  replacement.loaded = true;
  replacement.exports = { EventTarget: LazyEventTarget };
  require.cache[linkedomEventTarget] = replacement;
}
