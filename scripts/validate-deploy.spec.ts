import { resolve } from 'node:path';
import { DeployFiles, checkDeployFiles, readDeployFiles } from './validate-deploy';

const committed = readDeployFiles(resolve(__dirname, '..'));

/** The committed files with one of them edited; the edit must change something. */
function withEdit(file: string, from: string | RegExp, to: string): DeployFiles {
  const text = committed.get(file);
  if (text === undefined) throw new Error(`no ${file}`);
  const edited = text.replace(from, to);
  if (edited === text) throw new Error(`${String(from)} not found in ${file}`);
  return new Map(committed).set(file, edited);
}

describe('validate:deploy', () => {
  it('passes the committed docker/ and k8s/ files', () => {
    expect(committed.has('k8s/kustomization.yaml')).toBe(true);
    expect(committed.has('docker/worker.Dockerfile')).toBe(true);
    expect(checkDeployFiles(committed)).toEqual([]);
  });

  it('catches a Deployment with a string where the schema wants an integer', () => {
    const files = withEdit(
      'k8s/api-deployment.yaml',
      'revisionHistoryLimit: 5',
      'revisionHistoryLimit: five',
    );
    expect(checkDeployFiles(files)).toEqual([
      'k8s/api-deployment.yaml: Deployment scraper-api: data/spec/revisionHistoryLimit must be integer',
    ]);
  });

  it('catches a KEDA ScaledObject that breaks its CRD schema or watches the wrong list', () => {
    const file = 'k8s/worker-scaling/keda/scaledobject.yaml';
    expect(checkDeployFiles(withEdit(file, 'minReplicaCount: 1', 'minReplicaCount: one'))).toEqual([
      `${file}: ScaledObject scraper-worker: data/spec/minReplicaCount must be integer`,
    ]);
    expect(checkDeployFiles(withEdit(file, 'listName: scraper:bull', 'listName: other:bull'))).toEqual([
      expect.stringContaining('needs a redis trigger on scraper:bull:render:wait'),
    ]);
  });

  it('keeps terminationGracePeriodSeconds above preStop plus the drain time', () => {
    const short = withEdit(
      'k8s/api-deployment.yaml',
      'terminationGracePeriodSeconds: 150',
      'terminationGracePeriodSeconds: 140',
    );
    expect(checkDeployFiles(short)).toEqual([
      'Deployment scraper-api: terminationGracePeriodSeconds (140) must exceed preStop (5 s) + SHUTDOWN_GRACE_MS (140 s)',
    ]);
    const long = withEdit('k8s/configmap.yaml', "SHUTDOWN_GRACE_MS: '140000'", "SHUTDOWN_GRACE_MS: '150000'");
    expect(checkDeployFiles(long)).toEqual([
      'Deployment scraper-api: terminationGracePeriodSeconds (150) must exceed preStop (5 s) + SHUTDOWN_GRACE_MS (150 s)',
      'Deployment scraper-worker: terminationGracePeriodSeconds (150) must exceed preStop (0 s) + SHUTDOWN_GRACE_MS (150 s)',
    ]);
  });

  it("checks each container's environment against its app's config schema", () => {
    const typo = withEdit('k8s/configmap.yaml', 'RENDER_CONCURRENCY:', 'RENDER_CONCURENCY:');
    expect(checkDeployFiles(typo)).toEqual([
      'Deployment scraper-worker container worker: RENDER_CONCURENCY is not a variable of WorkerEnv',
    ]);
    const bad = withEdit('k8s/configmap.yaml', 'NET_EGRESS_MODE: public', 'NET_EGRESS_MODE: open');
    expect(checkDeployFiles(bad)).toEqual([
      expect.stringMatching(/^Deployment scraper-api container api: NET_EGRESS_MODE: /),
      expect.stringMatching(/^Deployment scraper-worker container worker: NET_EGRESS_MODE: /),
    ]);
    const missing = withEdit('docker/compose.yaml', /\n {2}SECRETS_ENCRYPTION_KEY: .*/, '');
    expect(checkDeployFiles(missing)).toEqual([
      expect.stringMatching(/^docker\/compose.yaml api: SECRETS_ENCRYPTION_KEY: is required/),
      expect.stringMatching(/^docker\/compose.yaml worker: SECRETS_ENCRYPTION_KEY: is required/),
    ]);
  });

  it('refuses committed secret values and an egress policy that lets workers reach metadata', () => {
    const secret = withEdit(
      'k8s/secret.template.yaml',
      'KEY_HASH_SECRET: <openssl rand -hex 32>',
      `KEY_HASH_SECRET: ${'a'.repeat(64)}`,
    );
    expect(checkDeployFiles(secret)).toEqual([
      'Secret scraper-secrets: KEY_HASH_SECRET must be a <placeholder>, not a value',
    ]);
    const open = withEdit('k8s/worker-networkpolicy.yaml', /\n\s+- 169\.254\.0\.0\/16/, '');
    expect(checkDeployFiles(open)).toEqual([
      'NetworkPolicy scraper-worker-egress: egress to 0.0.0.0/0 must except 169.254.0.0/16',
    ]);
  });

  it('lints the Dockerfiles and keeps a manifest from being left out of kustomize', () => {
    const dockerfile = withEdit('docker/api.Dockerfile', 'COPY tsconfig.json', 'COPPY tsconfig.json');
    expect(checkDeployFiles(dockerfile)).toEqual([
      expect.stringMatching(/^docker\/api.Dockerfile:\d+: Unknown instruction: COPPY/),
    ]);
    const root = withEdit('docker/worker.Dockerfile', 'USER 1000:1000', 'USER root');
    expect(checkDeployFiles(root)).toEqual([
      'docker/worker.Dockerfile: runtime stage needs a numeric non-root USER',
    ]);
    const both = withEdit(
      'k8s/kustomization.yaml',
      '  - worker-scaling/keda',
      '  - worker-scaling/keda\n  - worker-scaling/hpa',
    );
    expect(checkDeployFiles(both)).toEqual([
      'k8s/kustomization.yaml: scraper-worker has two autoscalers (KEDA or HPA, not both)',
    ]);
    const orphan = withEdit('k8s/kustomization.yaml', '  - api-pdb.yaml\n', '');
    expect(checkDeployFiles(orphan)).toEqual([
      'k8s/api-pdb.yaml: not in any kustomization (name it *.template.yaml if it is applied by hand)',
    ]);
  });

  it("keeps what Chromium's sandbox needs in the worker's pod and compose service", () => {
    const file = 'k8s/worker-deployment.yaml';
    const where = 'Deployment scraper-worker';
    expect(checkDeployFiles(withEdit(file, 'type: Localhost', 'type: RuntimeDefault'))).toEqual([
      `${where}: the worker needs seccompProfile Localhost scraper-chromium.json (Chromium's sandbox)`,
    ]);
    expect(checkDeployFiles(withEdit(file, 'runAsUser: 1000', 'runAsUser: 0'))).toEqual([
      `${where}: the worker must run as a non-root runAsUser (runAsNonRoot: true)`,
    ]);
    expect(checkDeployFiles(withEdit(file, 'privileged: false', 'privileged: true'))).toEqual([
      `${where}: the worker must not be privileged`,
    ]);
    const noSandbox = withEdit(
      file,
      "value: '3001'",
      "value: '3001'\n            - name: CHROMIUM_NO_SANDBOX\n              value: '1'",
    );
    expect(checkDeployFiles(noSandbox)).toEqual([
      `${where}: CHROMIUM_NO_SANDBOX=1 turns Chromium's sandbox off; the image runs with it`,
    ]);
    expect(checkDeployFiles(withEdit('docker/compose.yaml', /\n {6}- seccomp=.*/, ''))).toEqual([
      "docker/compose.yaml: worker needs security_opt seccomp=scraper-chromium.json for Chromium's sandbox",
    ]);
  });
});
