/**
 * What the service does with a main document, by its media type: html is rendered and converted;
 * text (plain text, JSON, XML, CSS, scripts) is returned as text; anything else (PDF, images,
 * archives, octet-stream) is UNSUPPORTED_CONTENT. A missing type is taken as HTML, as browsers sniff.
 */
export type ContentKind = 'html' | 'text' | 'json' | 'unsupported';

export function mediaType(contentType: string | null | undefined): string {
  return (contentType ?? '').split(';')[0].trim().toLowerCase();
}

const isAttachment = (disposition: string | null | undefined) =>
  !!disposition && /^\s*attachment\b/i.test(disposition);

export function contentKind(
  contentType: string | null | undefined,
  disposition?: string | null,
): ContentKind {
  // A download is not a page, whatever it contains (browsers would save it, not show it).
  if (isAttachment(disposition)) return 'unsupported';
  const type = mediaType(contentType);
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
