// A small element tree built with saxes, a conforming non-validating XML parser: it
// decodes character references and the five predefined entities, rejects malformed
// input, and never reads a DTD. Both importers (JATS, BioC) walk this tree.
//
// Security: a DOCTYPE naming an external DTD is ignored (never fetched), but one whose
// internal subset declares entities is refused outright — entity expansion is where
// "billion laughs" and external-entity (XXE) attacks live, and real PMC and BioC files
// never need it.

import { lazyPackage } from '../shared/lazy-package.ts';
import { FormatError } from './common.ts';

const saxes = lazyPackage<typeof import('saxes')>('saxes');

export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlNode[];
}

export type XmlNode = XmlElement | string;

export function isElement(node: XmlNode): node is XmlElement {
  return typeof node !== 'string';
}

/** Parses a whole document and returns its root element; `format` names the caller in errors. */
export function parseXmlTree(xml: string, format: string): XmlElement {
  if (xml.trimStart() === '' || !xml.trimStart().startsWith('<')) {
    throw new FormatError(format, 'the input is not XML (it does not start with "<")');
  }
  const parser = new (saxes().SaxesParser)({ position: true });
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  parser.on('doctype', (doctype) => {
    if (/<!ENTITY/i.test(doctype)) {
      throw new FormatError(format, 'the DOCTYPE declares entities; DTD processing is disabled, so such documents are refused');
    }
  });
  parser.on('opentag', (tag) => {
    const element: XmlElement = { name: tag.name, attributes: { ...(tag.attributes as Record<string, string>) }, children: [] };
    const parent = stack[stack.length - 1];
    if (parent) parent.children.push(element);
    else root = element;
    stack.push(element);
  });
  parser.on('closetag', () => {
    stack.pop();
  });
  const addText = (text: string) => {
    const parent = stack[stack.length - 1];
    if (!parent) return; // white space around the root element
    const last = parent.children[parent.children.length - 1];
    if (typeof last === 'string') parent.children[parent.children.length - 1] = last + text;
    else parent.children.push(text);
  };
  parser.on('text', addText);
  parser.on('cdata', addText);
  try {
    parser.write(xml).close();
  } catch (error) {
    if (error instanceof FormatError) throw error;
    throw new FormatError(format, `malformed XML: ${(error as Error).message}`);
  }
  if (!root) throw new FormatError(format, 'the document has no root element');
  return root;
}

/** The element children of `element` named `name` (namespace prefixes are kept as written). */
export function childElements(element: XmlElement, name?: string): XmlElement[] {
  return element.children.filter((c): c is XmlElement => isElement(c) && (name === undefined || c.name === name));
}

export function firstChild(element: XmlElement, name: string): XmlElement | undefined {
  return childElements(element, name)[0];
}

/** Every piece of text below `element`, in document order. */
export function textContent(element: XmlElement): string {
  let out = '';
  for (const child of element.children) out += typeof child === 'string' ? child : textContent(child);
  return out;
}

/** The first descendant named `name`, depth first. */
export function findDescendant(element: XmlElement, name: string): XmlElement | undefined {
  for (const child of childElements(element)) {
    if (child.name === name) return child;
    const found = findDescendant(child, name);
    if (found) return found;
  }
  return undefined;
}
