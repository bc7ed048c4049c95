import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { Event, EventTarget as LinkedomEventTarget } from 'linkedom';
import { LazyEventTarget } from './lazy-event-target';

/** A node with a parent, as linkedom's Node answers _getParent. */
class Child extends LazyEventTarget {
  constructor(private readonly parent: LazyEventTarget) {
    super();
  }
  override _getParent() {
    return this.parent;
  }
}

describe('LazyEventTarget', () => {
  it('has the methods of linkedom EventTarget it stands in for', () => {
    const names = (proto: object) => Object.getOwnPropertyNames(proto).sort();
    expect(names(LazyEventTarget.prototype)).toEqual(names(LinkedomEventTarget.prototype));
  });

  it('calls listeners with the target, once-listeners once, and stops at stopImmediatePropagation', () => {
    const target = new LazyEventTarget();
    const calls: string[] = [];
    target.addEventListener('ping', function (this: unknown) {
      calls.push(this === target ? 'first' : 'wrong this');
    });
    target.addEventListener('ping', () => calls.push('once'), { once: true });
    expect(target.dispatchEvent(new Event('ping') as never)).toBe(true);
    expect(target.dispatchEvent(new Event('ping') as never)).toBe(true);
    expect(calls).toEqual(['first', 'once', 'first']);

    const stopper = (e: { stopImmediatePropagation(): void }) => e.stopImmediatePropagation();
    const after = jest.fn();
    target.addEventListener('stop', stopper as never);
    target.addEventListener('stop', after);
    target.dispatchEvent(new Event('stop'));
    expect(after).not.toHaveBeenCalled();
  });

  it('bubbles to the parent only when the event bubbles, and reports preventDefault', () => {
    const parent = new LazyEventTarget();
    const child = new Child(parent);
    const heard: string[] = [];
    parent.addEventListener('go', (e: { eventPhase: number }) => heard.push(`parent ${e.eventPhase}`));
    child.dispatchEvent(new Event('go'));
    expect(heard).toEqual([]);
    child.dispatchEvent(new Event('go', { bubbles: true }));
    expect(heard).toEqual(['parent 3']);
    const cancel = new Event('go', { cancelable: true });
    child.addEventListener('go', ((e: { preventDefault(): void }) => e.preventDefault()) as never);
    expect(child.dispatchEvent(cancel as never)).toBe(false);
  });

  it('forgets a removed listener', () => {
    const target = new LazyEventTarget();
    const listener = jest.fn();
    target.addEventListener('x', listener);
    target.removeEventListener('x', listener);
    target.removeEventListener('never-added', listener);
    target.dispatchEvent(new Event('x'));
    expect(listener).not.toHaveBeenCalled();
  });

  // jest has a module registry of its own; a content thread loads modules as Node does.
  it('is what linkedom builds its nodes on once html-document has loaded, in plain Node', () => {
    const here = __dirname;
    const script = `
      require('./html-document.ts');
      const linkedom = require('linkedom');
      const { LazyEventTarget } = require('./lazy-event-target.ts');
      const { document } = linkedom.parseHTML('<p>text</p>');
      process.stdout.write(String(document.querySelector('p') instanceof LazyEventTarget));`;
    const out = execFileSync(
      process.execPath,
      ['--require', join(here, '..', 'content-pool', 'ts-thread-loader.js'), '-e', script],
      { cwd: here, encoding: 'utf8' },
    );
    expect(out).toBe('true');
  });
});
