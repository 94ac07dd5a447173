/**
 * The one way the console builds DOM: elements, attributes and text nodes. There is no HTML
 * parsing anywhere (no innerHTML, insertAdjacentHTML or document.write): text from the API, CV
 * text above all, is hostile input and only ever becomes a text node or an attribute value.
 */

export type Child = Node | string | number | null | undefined | false;
export type Attributes = Record<string, string | number | boolean | null | undefined>;

/** `el('li', {class: 'result', 'data-id': id}, [name, ' ', score])`. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  children: Child[] = [],
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    // Event handlers are attached with addEventListener, never from attribute text.
    if (/^on/i.test(name)) throw new Error(`el: ${name} is an event handler attribute`);
    if (value === false || value === null || value === undefined) continue;
    element.setAttribute(name, value === true ? '' : String(value));
  }
  append(element, children);
  return element;
}

export function append(parent: Node, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'string' || typeof child === 'number' ? document.createTextNode(String(child)) : child);
  }
}

/** Replaces an element's children. */
export function replaceChildren(parent: Element, children: Child[]): void {
  parent.replaceChildren();
  append(parent, children);
}

export function byId<T extends HTMLElement>(id: string, type: new () => T): T {
  const found = document.getElementById(id);
  if (!(found instanceof type)) throw new Error(`the page lacks #${id}`);
  return found;
}

/** Announces a sentence through a polite live region (the region must be in the page from the start). */
export function announce(region: HTMLElement, text: string): void {
  region.textContent = text;
}

export const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason as Error);
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    signal?.addEventListener('abort', stop, { once: true });
  });
