/**
 * How every engine presents itself: the same user agent family and viewport for the browser
 * engines and the http engine, so `render: auto` sees the same site either way. Headless Chromium's
 * own user agent says "HeadlessChrome", which many sites answer differently.
 */
export interface BrowserProfile {
  userAgent: string;
  /** The Chrome major version the user agent claims. */
  major: string;
  platform: 'Linux' | 'Android';
  viewport: { width: number; height: number };
  deviceScaleFactor: number;
  isMobile: boolean;
  hasTouch: boolean;
}

export const ACCEPT_LANGUAGE = 'en-US,en;q=0.9';

/** The http engine has no browser to ask, so it claims the Chromium the worker ships with. */
const DEBIAN_CHROMIUM = '156.0.0.0';

/**
 * `version` is what the browser reports (156.0.8078.79, or HeadlessChrome/156.0.8078.79 from
 * Puppeteer); only the major version is shown, as Chrome itself does.
 */
export function browserProfile(mobile: boolean, version = DEBIAN_CHROMIUM): BrowserProfile {
  const major = /(\d+)\.\d+/.exec(version)?.[1] ?? DEBIAN_CHROMIUM.split('.')[0];
  return mobile
    ? {
        userAgent: `Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${major}.0.0.0 Mobile Safari/537.36`,
        major,
        platform: 'Android',
        viewport: { width: 412, height: 915 },
        deviceScaleFactor: 2,
        isMobile: true,
        hasTouch: true,
      }
    : {
        userAgent: `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${major}.0.0.0 Safari/537.36`,
        major,
        platform: 'Linux',
        viewport: { width: 1280, height: 800 },
        deviceScaleFactor: 1,
        isMobile: false,
        hasTouch: false,
      };
}

/**
 * Parameters of CDP Emulation.setUserAgentOverride: the user agent, and client hints to match, since
 * headless Chromium's own Sec-CH-UA names "HeadlessChrome" whatever the user agent says.
 */
export function userAgentOverride(profile: BrowserProfile) {
  return {
    userAgent: profile.userAgent,
    acceptLanguage: ACCEPT_LANGUAGE,
    platform: profile.platform,
    userAgentMetadata: {
      brands: [
        { brand: 'Chromium', version: profile.major },
        { brand: 'Not:A-Brand', version: '8' },
      ],
      platform: profile.platform,
      platformVersion: '',
      architecture: profile.isMobile ? '' : 'x86',
      model: '',
      mobile: profile.isMobile,
    },
  };
}
