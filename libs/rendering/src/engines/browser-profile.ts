/**
 * How every engine presents itself: the same user agent family and viewport for the browser
 * engines and the http engine, so `render: auto` sees the same site either way. Headless Chromium's
 * own user agent says "HeadlessChrome", which many sites answer differently.
 */
export interface BrowserProfile {
  userAgent: string;
  viewport: { width: number; height: number };
  deviceScaleFactor: number;
  isMobile: boolean;
  hasTouch: boolean;
}

export const ACCEPT_LANGUAGE = 'en-US,en;q=0.9';

/** `version` is the browser's full version (e.g. 156.0.8078.79); only the major is shown, as Chrome does. */
export function browserProfile(mobile: boolean, version = '156.0.0.0'): BrowserProfile {
  const major = version.split('.')[0];
  return mobile
    ? {
        userAgent: `Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${major}.0.0.0 Mobile Safari/537.36`,
        viewport: { width: 412, height: 915 },
        deviceScaleFactor: 2,
        isMobile: true,
        hasTouch: true,
      }
    : {
        userAgent: `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${major}.0.0.0 Safari/537.36`,
        viewport: { width: 1280, height: 800 },
        deviceScaleFactor: 1,
        isMobile: false,
        hasTouch: false,
      };
}

/** Header names in lower case, so that the caller's `custom` headers replace defaults of any spelling. */
export function mergeHeaders(
  defaults: Record<string, string>,
  custom: Record<string, string> = {},
): Record<string, string> {
  const merged: Record<string, string> = {};
  for (const [name, value] of [...Object.entries(defaults), ...Object.entries(custom)])
    merged[name.toLowerCase()] = value;
  return merged;
}
