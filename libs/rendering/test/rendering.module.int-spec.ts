import { Test } from '@nestjs/testing';
import { ConfigModule, loadWorkerEnv } from '@app/config';
import { SCRAPE_DEFAULTS } from '@app/queue-contracts';
import { RenderService, RenderingModule } from '@app/rendering';
import { startFixtureSite, type FixtureSite } from '../../../test/fixtures/site/fixture-site';
import { startTestRendering } from './test-rendering';

let site: FixtureSite;

beforeAll(async () => {
  site = await startFixtureSite();
});

afterAll(async () => {
  await site?.close();
});

const request = (path: string, render: 'http' | 'browser') => ({
  url: site.origin + path,
  options: { ...SCRAPE_DEFAULTS, render, timeout: 10_000 },
  isolationKey: 'module-test',
});

describe('RenderingModule', () => {
  it('provides RenderService from the worker environment and closes on shutdown', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [ConfigModule.forWorker(loadWorkerEnv()), RenderingModule],
    }).compile();
    const app = await moduleRef.init();
    const page = await app.get(RenderService).render(request('/static/article/30', 'http'));
    expect(page).toMatchObject({ status_code: 200, metadata: { engine: 'http' } });
    await app.close();
  });
});

describe('RenderService faults of the machinery', () => {
  it('throws, instead of failing the page, when no browser can be launched', async () => {
    const rendering = await startTestRendering({ CHROMIUM_PATH: '/nonexistent/chromium' });
    try {
      await expect(rendering.service.render(request('/static/article/31', 'browser'))).rejects.toThrow();
      // Plain HTTP still works.
      expect((await rendering.service.render(request('/static/article/31', 'http'))).error).toBeUndefined();
    } finally {
      await rendering.close();
    }
  });

  it('throws when the browser cannot reach the egress proxy', async () => {
    const rendering = await startTestRendering();
    try {
      await rendering.proxy.close();
      await expect(rendering.service.render(request('/static/article/32', 'browser'))).rejects.toMatchObject({
        name: 'EgressUnavailableError',
      });
    } finally {
      await rendering.close().catch(() => undefined);
    }
  });
});
