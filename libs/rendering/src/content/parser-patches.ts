import { Parser, Tokenizer } from 'htmlparser2';
import { Element as LinkedomElement } from 'linkedom';

/**
 * Fixes to the parser linkedom uses, applied once on import (html-document.ts), each where a
 * hostile page made its cost grow past linear.
 *
 * htmlparser2 keeps its open elements top first and opens each one with Array.unshift, which moves
 * the whole stack: a 200,000-deep nesting took 37 s to parse. This stack keeps them bottom first
 * behind the same interface (top at index 0), so opening and closing take constant time.
 */
function topFirstStack<T>(): T[] {
  const items: T[] = [];
  const methods: Record<string, unknown> = {
    shift: () => items.pop(),
    unshift: (item: T) => items.push(item),
    indexOf: (item: T) => {
      const at = items.lastIndexOf(item);
      return at === -1 ? -1 : items.length - 1 - at;
    },
  };
  return new Proxy(items, {
    get(target, key) {
      if (key === '0') return items[items.length - 1];
      if (key === 'length') return items.length;
      if (typeof key === 'string') {
        if (key in methods) return methods[key];
        const index = Number(key);
        if (Number.isInteger(index) && index >= 0) return items[items.length - 1 - index];
      }
      return Reflect.get(target, key) as unknown;
    },
  });
}

for (const field of ['stack', 'foreignContext']) {
  const own = new WeakMap<object, unknown[]>();
  Object.defineProperty(Parser.prototype, field, {
    configurable: true,
    get(this: object) {
      return own.get(this);
    },
    // The constructor assigns a fresh array: the stack starts empty all the same.
    set(this: object, initial: unknown[]) {
      const stack = topFirstStack<unknown>();
      for (let i = initial.length - 1; i >= 0; i--) stack.unshift(initial[i]);
      own.set(this, stack);
    },
  });
}

/**
 * htmlparser2 reports text in pieces, one at each character reference, and linkedom makes each
 * piece a text node: a page of 400,000 `&amp;` became 400,000 nodes (139 MB) that the element
 * bound does not count. Consecutive pieces are joined here into one call, one node, as a
 * browser's parser has it.
 */
type Handlers = Record<string, unknown>;

function joiningText(handlers: Handlers): Handlers {
  let pieces: string[] = [];
  const flush = () => {
    if (!pieces.length) return;
    const text = pieces.length === 1 ? pieces[0] : pieces.join('');
    pieces = [];
    (handlers.ontext as (text: string) => void)(text);
  };
  const wrapped = new Map<PropertyKey, unknown>();
  return new Proxy(handlers, {
    get(target, key) {
      const value = Reflect.get(target, key) as unknown;
      // The last text of a document is flushed at its end even if nothing listens for the end.
      if (key === 'onend' && typeof value !== 'function') return flush;
      if (typeof value !== 'function') return value;
      if (!wrapped.has(key)) {
        const handler = value as (...args: unknown[]) => unknown;
        wrapped.set(
          key,
          key === 'ontext'
            ? (text: string) => void pieces.push(text)
            : (...args: unknown[]) => {
                flush();
                return handler.apply(target, args);
              },
        );
      }
      return wrapped.get(key);
    },
  });
}

const handlersOf = new WeakMap<object, Handlers>();
Object.defineProperty(Parser.prototype, 'cbs', {
  configurable: true,
  get(this: object) {
    return handlersOf.get(this);
  },
  set(this: object, handlers: Handlers) {
    handlersOf.set(this, handlers.ontext ? joiningText(handlers) : handlers);
  },
});

/** Whether the stack above is in place (a test checks that an htmlparser2 upgrade kept it). */
export function parserStackPatched(): boolean {
  return (new Parser() as unknown as { stack: unknown[] }).stack.indexOf !== [].indexOf;
}

// linkedom sets a class attribute by spreading its tokens into one call, which overflows the
// stack past about 100,000 tokens: set them one at a time, and write the attribute once.
const addToken = Set.prototype.add;
Object.defineProperty(LinkedomElement.prototype, 'className', {
  configurable: true,
  // Its tokens joined as DOMTokenList.value joins them, but not spread into an array first: the
  // class is read at each element Readability and the chrome signals weigh.
  get(this: Element) {
    let value = '';
    let first = true;
    for (const token of this.classList as DOMTokenList & Set<string>) {
      value = first ? token : `${value} ${token}`;
      first = false;
    }
    return value;
  },
  set(this: Element, value: unknown) {
    // linkedom's DOMTokenList is a Set.
    const classes = this.classList as DOMTokenList & Set<string>;
    classes.clear();
    for (const token of String(value).split(/\s+/)) if (token) addToken.call(classes, token);
    classes.add();
  },
});

/**
 * linkedom upper-cases an element's local name at each read of `tagName` and `nodeName`, which
 * every walk of the extractor makes (6% of a static page's content work): each element keeps its
 * name once read (its local name and its document, whose case rule it follows, stay; importNode
 * moves a fresh copy). On the element: a look-up by document and name cost 4 times as much.
 */
const readName = Object.getOwnPropertyDescriptor(LinkedomElement.prototype, 'tagName')!.get!;
const NAME = Symbol('tag name');
function cachedName(this: Element & { [NAME]?: string }): string {
  return (this[NAME] ??= readName.call(this) as string);
}
for (const field of ['tagName', 'nodeName'])
  Object.defineProperty(LinkedomElement.prototype, field, { configurable: true, get: cachedName });

/**
 * In HTML, `<![CDATA[` outside SVG and MathML opens a bogus comment that ends at the next `>`, as a
 * browser reads it; htmlparser2 reads on to `]]>`, so one stray in a forum's body hid the whole
 * page. Its last character ("[" of "CDATA[") is read as a mismatch: the rest is then a declaration,
 * which ends at the next `>` and which linkedom drops.
 */
const CDATA_LAST = 'CDATA['.length - 1;
const tokenizer = Tokenizer.prototype as unknown as {
  stateCDATASequence(this: { xmlMode: boolean; sequenceIndex: number }, c: number): void;
};
const readCdata = tokenizer.stateCDATASequence;
tokenizer.stateCDATASequence = function (c) {
  readCdata.call(this, !this.xmlMode && this.sequenceIndex === CDATA_LAST ? 0 : c);
};

/**
 * One body, right after the head, as a browser builds it: markup between `</head>` and `<body>`
 * (a `<header>`, a script) opens the body, and a later `<body>` adds its attributes and content to
 * it. The parser leaves them side by side, and its `document.body` then is an empty body it adds.
 */
export function joinBodies(document: Document): void {
  const root = document.documentElement;
  const children = root ? [...root.children].filter((child) => child.tagName !== 'HEAD') : [];
  const at = children.findIndex((child) => child.tagName === 'BODY');
  if (at < 0 || children.length === 1) return;
  const body = children[at];
  body.prepend(...children.slice(0, at));
  for (const later of children.slice(at + 1)) {
    if (later.tagName !== 'BODY') {
      body.append(later);
      continue;
    }
    for (const { name, value } of [...later.attributes])
      if (!body.hasAttribute(name)) body.setAttribute(name, value);
    body.append(...later.childNodes);
    later.remove();
  }
  const head = root.querySelector('head');
  if (head && head.parentElement === root) head.after(body);
}
