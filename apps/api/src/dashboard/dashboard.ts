import { join } from 'node:path';
import { static as serveStatic, type NextFunction, type Request, type Response } from 'express';
import type { NestExpressApplication } from '@nestjs/platform-express';

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

function securityHeaders(_req: Request, res: Response, next: NextFunction): void {
  res.set(HEADERS);
  next();
}

/** Serves /dashboard/ (plain HTML, CSS and JS: no build step, nothing from a CDN). */
export function serveDashboard(app: NestExpressApplication): void {
  app.use(
    '/dashboard',
    securityHeaders,
    serveStatic(DASHBOARD_ROOT, { index: 'index.html', dotfiles: 'ignore', fallthrough: true }),
  );
}
