// The pods' checks of `npm run validate:deploy` (scripts/validate-deploy.ts): each container's
// environment against its process's config schema, probes, the worker's sandbox and grace period,
// KEDA scaling and the workers' egress policy.
import { getMetadataStorage } from 'class-validator';
import { ApiEnv, ConfigError, DatabaseEnv, WorkerEnv, parseEnv } from '@app/config';
import { MAX_TIMEOUT_MS, QUEUES } from '@app/queue-contracts';
import { waitListKey } from '@app/queues';
import { type Obj, at, list, obj, str } from './values';

/** Each app container, by name, and the config schema its process validates at start-up. */
export const SCHEMAS: Record<string, new () => object> = {
  api: ApiEnv,
  worker: WorkerEnv,
  migrate: DatabaseEnv,
};
/** Set for a process but not read by the app (Chromium keeps its profile under HOME). */
const PROCESS_VARIABLES = new Set(['HOME']);
/** Never a literal in a committed file. */
export const SECRETS = ['KEY_HASH_SECRET', 'SECRETS_ENCRYPTION_KEY', 'ADMIN_TOKEN'];
/** Carry passwords: in the cluster they come from the Secret as well. */
const CREDENTIAL_URLS = ['DATABASE_URL', 'REDIS_URL'];
const HEALTH_PORT_VARIABLE: Record<string, string> = { api: 'PORT', worker: 'WORKER_PORT' };
/** Ranges the workers may never reach (docs/decisions.md, Kubernetes): private, CGNAT, link-local, ULA. */
const DENIED_EGRESS: Record<string, string[]> = {
  '0.0.0.0/0': ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '100.64.0.0/10', '169.254.0.0/16'],
  '::/0': ['fc00::/7', 'fe80::/10'],
};

export function checkWorkloads(docs: Obj[]): string[] {
  const problems: string[] = [];
  const named = (kind: string) =>
    new Map(docs.filter((d) => d.kind === kind).map((d) => [str(at(d, 'metadata', 'name')), d]));
  const configMaps = named('ConfigMap');
  const secrets = named('Secret');
  const deployments = named('Deployment');
  const workloads = [...deployments.values(), ...named('Job').values()];
  const templates = workloads.map((w) => obj(at(w, 'spec', 'template')));

  for (const secret of secrets.values()) {
    const name = str(at(secret, 'metadata', 'name'));
    if (secret.data !== undefined)
      problems.push(`Secret ${name}: a template holds stringData placeholders, never data`);
    for (const [key, value] of Object.entries(obj(secret.stringData)))
      if (!/<[^>]+>/.test(str(value) ?? ''))
        problems.push(`Secret ${name}: ${key} must be a <placeholder>, not a value`);
  }

  for (const workload of workloads) {
    const where = `${str(workload.kind)} ${str(at(workload, 'metadata', 'name'))}`;
    const pod = obj(at(workload, 'spec', 'template', 'spec'));
    for (const container of list(pod.containers).map(obj)) {
      const name = str(container.name) ?? '';
      const schema = SCHEMAS[name];
      if (!schema) {
        problems.push(`${where}: container ${name} is none of ${Object.keys(SCHEMAS).join(', ')}`);
        continue;
      }
      const { env, opaque, fromSecret } = containerEnv(where, container, configMaps, secrets, problems);
      problems.push(...checkEnv(`${where} container ${name}`, schema, env, opaque));
      for (const variable of [...SECRETS, ...CREDENTIAL_URLS])
        if (variable in env && !fromSecret.has(variable))
          problems.push(`${where}: ${variable} must come from a Secret`);
      if (name in HEALTH_PORT_VARIABLE) problems.push(...checkProbes(where, container, schema, env));
      if (name === 'worker') problems.push(...checkWorkerPod(where, pod, container, env));
      if (name === 'api' || name === 'worker') problems.push(...checkGracePeriod(where, pod, container, env));
    }
  }

  const selects = (selector: unknown) =>
    templates.some((t) =>
      Object.entries(obj(selector)).every(([k, v]) => at(t, 'metadata', 'labels', k) === v),
    );
  for (const doc of docs) {
    const where = `${str(doc.kind)} ${str(at(doc, 'metadata', 'name'))}`;
    const selector =
      doc.kind === 'Service'
        ? at(doc, 'spec', 'selector')
        : doc.kind === 'PodDisruptionBudget'
          ? at(doc, 'spec', 'selector', 'matchLabels')
          : doc.kind === 'NetworkPolicy'
            ? at(doc, 'spec', 'podSelector', 'matchLabels')
            : undefined;
    if (selector !== undefined && !selects(selector)) problems.push(`${where}: selects no pod template`);
    if (doc.kind === 'HorizontalPodAutoscaler' || doc.kind === 'ScaledObject') {
      const target = deployments.get(str(at(doc, 'spec', 'scaleTargetRef', 'name')));
      if (!target) problems.push(`${where}: scaleTargetRef names no Deployment`);
      else if (doc.kind === 'ScaledObject')
        problems.push(...checkScaledObject(where, doc, target, configMaps));
    }
    if (doc.kind === 'NetworkPolicy') problems.push(...checkEgress(where, doc));
    for (const ref of list(at(doc, 'spec', 'secretTargetRef')).map(obj))
      if (at(secrets.get(str(ref.name)), 'stringData', str(ref.key) ?? '') === undefined)
        problems.push(
          `${where}: ${str(ref.parameter)} refers to ${str(ref.name)}/${str(ref.key)}, not in a Secret template`,
        );
  }
  return problems;
}

interface ContainerEnv {
  env: Record<string, string>;
  /** Variables whose committed value is a placeholder (from the Secret template). */
  opaque: Set<string>;
  fromSecret: Set<string>;
}

function containerEnv(
  where: string,
  container: Obj,
  configMaps: Map<string | undefined, Obj>,
  secrets: Map<string | undefined, Obj>,
  problems: string[],
): ContainerEnv {
  const result: ContainerEnv = { env: {}, opaque: new Set(), fromSecret: new Set() };
  for (const source of list(container.envFrom).map(obj)) {
    const name = str(at(source, 'configMapRef', 'name'));
    const configMap = configMaps.get(name);
    if (!configMap)
      problems.push(
        `${where}: envFrom names no ConfigMap (${name ?? 'secretRef: list each secret instead'})`,
      );
    for (const [key, value] of Object.entries(obj(configMap?.data))) result.env[key] = str(value) ?? '';
  }
  for (const entry of list(container.env).map(obj)) {
    const name = str(entry.name) ?? '';
    const ref = obj(at(entry, 'valueFrom', 'secretKeyRef'));
    if (entry.valueFrom === undefined) {
      result.env[name] = str(entry.value) ?? '';
      continue;
    }
    const value = at(secrets.get(str(ref.name)), 'stringData', str(ref.key) ?? '');
    if (value === undefined)
      problems.push(`${where}: ${name} refers to ${str(ref.name)}/${str(ref.key)}, not in a Secret template`);
    result.env[name] = str(value) ?? '';
    result.opaque.add(name);
    result.fromSecret.add(name);
  }
  return result;
}

/**
 * The app's own validation of the environment, minus what a committed file cannot know (values from
 * the Secret or interpolated by compose), plus: no unknown names (a typo is silently ignored by the
 * app), production mode, and no loopback default left where the stores are elsewhere.
 */
export function checkEnv(
  where: string,
  schema: new () => object,
  env: Record<string, string>,
  opaque: Set<string>,
): string[] {
  const problems: string[] = [];
  const known = new Set(
    getMetadataStorage()
      .getTargetValidationMetadatas(schema, '', true, false)
      .map((m) => m.propertyName),
  );
  for (const name of Object.keys(env))
    if (!known.has(name) && !PROCESS_VARIABLES.has(name))
      problems.push(`${where}: ${name} is not a variable of ${schema.name}`);
  if (env.NODE_ENV !== 'production') problems.push(`${where}: NODE_ENV must be production`);
  const defaults = new schema() as Obj;
  for (const name of known)
    if (!(name in env) && /127\.0\.0\.1|localhost/.test(str(defaults[name]) ?? ''))
      problems.push(`${where}: ${name} must be set (its default points at this machine)`);
  try {
    parseEnv(schema, env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    problems.push(...err.problems.filter((p) => !opaque.has(p.split(':')[0])).map((p) => `${where}: ${p}`));
  }
  return problems;
}

function checkProbes(
  where: string,
  container: Obj,
  schema: new () => object,
  env: Record<string, string>,
): string[] {
  const problems: string[] = [];
  const variable = HEALTH_PORT_VARIABLE[str(container.name) ?? ''];
  const port = Number(env[variable] ?? (new schema() as Obj)[variable]);
  const ports = list(container.ports).map(obj);
  for (const [probe, path] of [
    ['livenessProbe', '/healthz'],
    ['readinessProbe', '/readyz'],
  ]) {
    const get = obj(at(container, probe, 'httpGet'));
    const target = ports.find((p) => p.name === get.port || p.containerPort === get.port);
    if (get.path !== path) problems.push(`${where}: ${probe} must GET ${path}`);
    if (target?.containerPort !== port) problems.push(`${where}: ${probe} must reach ${variable} (${port})`);
  }
  return problems;
}

/**
 * What Chromium's sandbox needs and nothing more: a non-root user, a seccomp profile that lets it
 * build its namespaces (not the runtime's default, which refuses them on containerd), no privilege.
 */
function checkWorkerSandbox(where: string, pod: Obj, container: Obj, env: Record<string, string>): string[] {
  const problems: string[] = [];
  const security = (key: string) => at(container, 'securityContext', key) ?? at(pod, 'securityContext', key);
  if (security('runAsNonRoot') !== true || [0, '0', undefined].includes(security('runAsUser') as never))
    problems.push(`${where}: the worker must run as a non-root runAsUser (runAsNonRoot: true)`);
  const seccomp = obj(security('seccompProfile'));
  if (seccomp.type !== 'Localhost' || !/scraper-chromium\.json$/.test(str(seccomp.localhostProfile) ?? ''))
    problems.push(
      `${where}: the worker needs seccompProfile Localhost scraper-chromium.json (Chromium's sandbox)`,
    );
  if (at(container, 'securityContext', 'privileged') === true)
    problems.push(`${where}: the worker must not be privileged`);
  if (at(container, 'securityContext', 'allowPrivilegeEscalation') !== false)
    problems.push(`${where}: the worker needs allowPrivilegeEscalation: false`);
  if (!list(at(container, 'securityContext', 'capabilities', 'drop')).includes('ALL'))
    problems.push(`${where}: the worker must drop ALL capabilities`);
  if (env.CHROMIUM_NO_SANDBOX === '1')
    problems.push(`${where}: CHROMIUM_NO_SANDBOX=1 turns Chromium's sandbox off; the image runs with it`);
  return problems;
}

function checkWorkerPod(where: string, pod: Obj, container: Obj, env: Record<string, string>): string[] {
  const problems = checkWorkerSandbox(where, pod, container, env);
  const shm = list(container.volumeMounts)
    .map(obj)
    .find((m) => m.mountPath === '/dev/shm');
  const volume = list(pod.volumes)
    .map(obj)
    .find((v) => v.name === shm?.name);
  if (at(volume, 'emptyDir', 'medium') !== 'Memory' || at(volume, 'emptyDir', 'sizeLimit') === undefined)
    problems.push(`${where}: /dev/shm must be an emptyDir in Memory with a sizeLimit`);
  return problems;
}

/**
 * The kubelet kills a pod terminationGracePeriodSeconds after it starts stopping it: that must cover
 * the preStop pause plus the app's own drain (SHUTDOWN_GRACE_MS), and the drain must outlast a page
 * in flight (a worker's page, or the page a sync scrape on the API waits for).
 */
function checkGracePeriod(where: string, pod: Obj, container: Obj, env: Record<string, string>): string[] {
  const problems: string[] = [];
  const drainMs = Number(env.SHUTDOWN_GRACE_MS ?? new ApiEnv().SHUTDOWN_GRACE_MS);
  const preStop = list(at(container, 'lifecycle', 'preStop', 'exec', 'command')).map(str);
  const preStopS = preStop[0] === 'sleep' ? Number(preStop[1]) : 0;
  const grace = Number(pod.terminationGracePeriodSeconds ?? 30);
  if (drainMs <= MAX_TIMEOUT_MS)
    problems.push(
      `${where}: SHUTDOWN_GRACE_MS (${drainMs}) must exceed a page's longest timeout (${MAX_TIMEOUT_MS} ms)`,
    );
  if (grace <= preStopS + drainMs / 1000)
    problems.push(
      `${where}: terminationGracePeriodSeconds (${grace}) must exceed preStop (${preStopS} s) + SHUTDOWN_GRACE_MS (${drainMs / 1000} s)`,
    );
  return problems;
}

function checkScaledObject(
  where: string,
  doc: Obj,
  target: Obj,
  configMaps: Map<string | undefined, Obj>,
): string[] {
  const container = list(at(target, 'spec', 'template', 'spec', 'containers'))
    .map(obj)
    .find((c) => c.name === 'worker');
  const env = container ? containerEnv(where, container, configMaps, new Map(), []).env : {};
  const wanted = waitListKey(env.REDIS_PREFIX ?? new WorkerEnv().REDIS_PREFIX, QUEUES.render);
  const triggers = list(at(doc, 'spec', 'triggers')).map(obj);
  return triggers.some((t) => t.type === 'redis' && at(t, 'metadata', 'listName') === wanted)
    ? []
    : [`${where}: needs a redis trigger on ${wanted} (the render queue's wait list under REDIS_PREFIX)`];
}

function checkEgress(where: string, doc: Obj): string[] {
  const blocks = list(at(doc, 'spec', 'egress'))
    .flatMap((rule) => list(obj(rule).to))
    .map((peer) => obj(obj(peer).ipBlock));
  return Object.entries(DENIED_EGRESS).flatMap(([cidr, denied]) => {
    const block = blocks.find((b) => b.cidr === cidr);
    const missing = denied.filter((range) => !list(block?.except).includes(range));
    return block && !missing.length
      ? []
      : [`${where}: egress to ${cidr} must except ${missing.join(', ') || denied.join(', ')}`];
  });
}
