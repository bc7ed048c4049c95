import { readFileSync } from 'node:fs';
import { getMetadataStorage } from 'class-validator';
import { ApiEnv, WorkerEnv, documentedVariables } from '@app/config';
import { README, configTable, withConfigTable } from './config-docs';

const schemaVariables = (schema: new () => object) =>
  getMetadataStorage()
    .getTargetValidationMetadatas(schema, '', true, false)
    .map((m) => m.propertyName);

describe('docs:config', () => {
  it('documents every variable of the schemas once', () => {
    const names = documentedVariables().map((v) => v.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names.sort()).toEqual(
      [...new Set([...schemaVariables(ApiEnv), ...schemaVariables(WorkerEnv)])].sort(),
    );
  });

  it("shows each variable's default from the schema", () => {
    const byName = new Map(documentedVariables().map((v) => [v.name, v.default]));
    expect(byName.get('WORKER_QUEUES')).toBe('`render,crawl,webhooks`');
    expect(byName.get('NET_ALLOW_CIDRS')).toBe('empty');
    expect(byName.get('NODE_EXTRA_CA_CERTS')).toBe('none');
    expect(byName.get('WEBHOOK_INLINE_MAX_BYTES')).toBe('`5242880`');
  });

  it('README.md holds the table the schema gives (run `npm run docs:config` after changing it)', () => {
    const readme = readFileSync(README, 'utf8');
    expect(readme).toContain(configTable());
    expect(withConfigTable(readme)).toBe(readme);
  });

  it('refuses a README without the markers', () => {
    expect(() => withConfigTable('# no table here\n')).toThrow(/lacks the markers/);
  });
});
