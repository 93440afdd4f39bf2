/**
 * Writes an XML element and its subtree back out as a standalone XML string while a SAX parse reads it
 * (oaiResponseParser.ts, for each record's metadata): with declarations for every namespace prefix it
 * uses that was declared outside it, so that another parser can read it alone.
 *
 * Left to others: which element to write and when it starts and ends (oaiResponseParser.ts).
 */
import type { SaxesTagNS } from 'saxes';

/**
 * Writes one element and its subtree back out as text. The root's start tag is written last, once the
 * whole subtree has shown which prefixes (and whether the default namespace) it takes from outside;
 * those get declarations on the root, the way exclusive XML canonicalisation does it, so nothing
 * unused is dragged along and nothing used is left unbound.
 */
export class StandaloneElementWriter {
  private readonly parts: string[] = [];
  /** Namespace declarations made on each open element of the subtree, outermost first. */
  private readonly declaredInside: Array<Readonly<Record<string, string>>> = [];
  /** Prefixes ('' for the default namespace) used in the subtree but declared outside it. */
  private readonly fromOutside = new Map<string, string>();
  private rootName = '';
  private rootAttributes = '';
  private rootIsEmpty = false;

  open(tag: SaxesTagNS): void {
    const isRoot = this.declaredInside.length === 0;
    this.declaredInside.push(tag.ns ?? {});
    this.use(tag.prefix, tag.uri);
    let attributes = '';
    for (const attribute of Object.values(tag.attributes)) {
      const isDeclaration = attribute.name === 'xmlns' || attribute.prefix === 'xmlns';
      // Unprefixed attributes are in no namespace, whatever the default namespace is.
      if (!isDeclaration && attribute.prefix !== '') this.use(attribute.prefix, attribute.uri);
      attributes += ` ${attribute.name}="${escapeAttributeValue(attribute.value)}"`;
    }
    if (isRoot) {
      this.rootName = tag.name;
      this.rootAttributes = attributes;
      this.rootIsEmpty = tag.isSelfClosing;
    } else {
      this.parts.push(`<${tag.name}${attributes}${tag.isSelfClosing ? '/>' : '>'}`);
    }
  }

  text(text: string): void {
    this.parts.push(escapeText(text));
  }

  /** Returns true when the closed element is the root, i.e. the subtree is complete. */
  close(tag: SaxesTagNS): boolean {
    this.declaredInside.pop();
    if (this.declaredInside.length === 0) return true;
    if (!tag.isSelfClosing) this.parts.push(`</${tag.name}>`);
    return false;
  }

  finish(): string {
    let declarations = '';
    for (const [prefix, uri] of this.fromOutside) {
      declarations += prefix === '' ? ` xmlns="${escapeAttributeValue(uri)}"` : ` xmlns:${prefix}="${escapeAttributeValue(uri)}"`;
    }
    const start = `<${this.rootName}${this.rootAttributes}${declarations}`;
    return this.rootIsEmpty ? `${start}/>` : `${start}>${this.parts.join('')}</${this.rootName}>`;
  }

  private use(prefix: string, uri: string): void {
    // `xml` is bound in every document and may not be declared again with another meaning.
    if (prefix === 'xml' || this.fromOutside.has(prefix)) return;
    if (this.declaredInside.some((declared) => Object.prototype.hasOwnProperty.call(declared, prefix))) return;
    // An unprefixed element in no namespace needs no declaration (and `xmlns=""` would be noise).
    if (prefix === '' && uri === '') return;
    this.fromOutside.set(prefix, uri);
  }
}

function escapeText(text: string): string {
  return text.replace(/[&<>\r]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&#13;'));
}

function escapeAttributeValue(value: string): string {
  return value.replace(/[&<"\t\n\r]/g, (c) => {
    switch (c) {
      case '&': return '&amp;';
      case '<': return '&lt;';
      case '"': return '&quot;';
      default: return `&#${c.charCodeAt(0)};`;
    }
  });
}
