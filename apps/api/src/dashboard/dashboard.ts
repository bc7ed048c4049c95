import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';

/**
 * The pages and their assets. In the source tree they sit beside this file; `npm run build` copies
 * them to the same place under dist/ (scripts/copy-assets.ts), so one path works for both.
 */
export const DASHBOARD_ROOT = join(__dirname, 'public');

/**
 * Same-origin scripts, styles and fetches only: no inline code, no third party, never framed. The
 * key the pages hold lives in sessionStorage, so what keeps it safe is that no other script runs.
 */
const HEADERS: Record<string, string> = {
  'Content-Security-Policy': [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; '),
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=()',
  // Small files: always revalidated, so a deploy shows at once.
  'Cache-Control': 'no-cache',
};

/** Serves /dashboard/ (plain HTML, CSS and JS: no build step, nothing from a CDN). */
export async function serveDashboard(app: NestFastifyApplication): Promise<void> {
  await app.register(fastifyStatic, {
    root: DASHBOARD_ROOT,
    prefix: '/dashboard',
    // /dashboard -> /dashboard/, so the pages' relative asset paths resolve.
    redirect: true,
    index: 'index.html',
    dotfiles: 'ignore',
    // Its own `public, max-age=0` would replace ours.
    cacheControl: false,
    // Nothing here calls reply.sendFile().
    decorateReply: false,
    setHeaders: (reply) => void reply.headers(HEADERS),
  });
}
