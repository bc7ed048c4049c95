/**
 * What the service does with a main document, by its media type: html is rendered and converted;
 * text (plain text, JSON, XML, CSS, scripts) is returned as text; a PDF is converted from its
 * bytes (pdf-content.ts); anything else (images, archives, octet-stream) is UNSUPPORTED_CONTENT.
 * A missing type is taken as HTML, as browsers sniff.
 */
export type ContentKind = 'html' | 'text' | 'json' | 'pdf' | 'unsupported';

const PDF_TYPES = new Set(['application/pdf', 'application/x-pdf']);

/**
 * Types a PDF may come as without saying so: sniffed for the signature (isPdf) instead of refused
 * at once, and read up to PDF_MAX_BYTES rather than the HTML cap.
 */
export function mayBePdf(contentType: string | null | undefined): boolean {
  const type = mediaType(contentType);
  return PDF_TYPES.has(type) || type === 'application/octet-stream' || type === 'binary/octet-stream';
}

/** Where readers accept the `%PDF-` header: within the first 1024 bytes. */
export const PDF_SIGNATURE_WITHIN = 1024;

export function isPdf(bytes: Uint8Array): boolean {
  const head = Math.min(bytes.byteLength, PDF_SIGNATURE_WITHIN);
  return Buffer.from(bytes.buffer, bytes.byteOffset, head).includes('%PDF-');
}

export function mediaType(contentType: string | null | undefined): string {
  return (contentType ?? '').split(';')[0].trim().toLowerCase();
}

const isAttachment = (disposition: string | null | undefined) =>
  !!disposition && /^\s*attachment\b/i.test(disposition);

export function contentKind(
  contentType: string | null | undefined,
  disposition?: string | null,
): ContentKind {
  const type = mediaType(contentType);
  // A PDF is a document whether shown or saved: servers often send it as an attachment.
  if (PDF_TYPES.has(type)) return 'pdf';
  // Any other download is not a page, whatever it contains (browsers would save it, not show it).
  if (isAttachment(disposition)) return 'unsupported';
  if (type === '' || type === 'text/html' || type === 'application/xhtml+xml') return 'html';
  if (type === 'application/json' || type.endsWith('+json')) return 'json';
  if (type.startsWith('text/') || type === 'application/xml' || type.endsWith('+xml')) return 'text';
  if (type === 'application/javascript' || type === 'application/ecmascript') return 'text';
  return 'unsupported';
}

/** Why a document of kind 'unsupported' is not a page, for the UNSUPPORTED_CONTENT message. */
export function unsupportedReason(
  contentType: string | null | undefined,
  disposition?: string | null,
): string {
  if (isAttachment(disposition)) return 'the URL is a download (content-disposition: attachment), not a page';
  return `the document is ${mediaType(contentType) || 'of no declared type'}, not a page`;
}
