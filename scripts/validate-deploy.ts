// `npm run validate:deploy`: checks docker/ and k8s/ offline, as CI can (no cluster, no Docker
// engine): every Kubernetes object against its schema, the kustomizations, each container's
// environment against the app's config schema, probes, scaling and egress policy, compose.yaml as
// data, and the Dockerfiles with dockerfile-utils. Prints one line a problem; exits 1 on any.
import 'reflect-metadata';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, posix, relative } from 'node:path';
import { getMetadataStorage } from 'class-validator';
import { ValidationSeverity, validate as lintDockerfile } from 'dockerfile-utils';
import { parseAllDocuments } from 'yaml';
import * as keda from '@kubernetes-models/keda/keda.sh/v1alpha1';
import * as kubernetes from 'kubernetes-models';
import { ApiEnv, ConfigError, DatabaseEnv, WorkerEnv, parseEnv } from '@app/config';
import { MAX_TIMEOUT_MS, QUEUES } from '@app/queue-contracts';
import { waitListKey } from '@app/queues';

/** Repository-relative path (posix) -> text of the YAML files and Dockerfiles under docker/ and k8s/. */
export type DeployFiles = Map<string, string>;

type Obj = Record<string, unknown>;
type ModelClass = new (data: object) => { validate(): void };

/** Custom resources the manifests use; built-in kinds come from kubernetes-models by apiVersion. */
const CRD_MODELS: Record<string, object> = { 'keda.sh/v1alpha1': keda };
const KUSTOMIZE_KINDS: Record<string, string> = {
  'kustomize.config.k8s.io/v1beta1': 'Kustomization',
  'kustomize.config.k8s.io/v1alpha1': 'Component',
};
const KUSTOMIZE_FIELDS = new Set(['apiVersion', 'kind', 'namespace', 'resources', 'components', 'images']);

/** Each app container, by name, and the config schema its process validates at start-up. */
const SCHEMAS: Record<string, new () => object> = { api: ApiEnv, worker: WorkerEnv, migrate: DatabaseEnv };
/** Set for a process but not read by the app (Chromium keeps its profile under HOME). */
const PROCESS_VARIABLES = new Set(['HOME']);
/** Never a literal in a committed file. */
const SECRETS = ['KEY_HASH_SECRET', 'SECRETS_ENCRYPTION_KEY', 'ADMIN_TOKEN'];
/** Carry passwords: in the cluster they come from the Secret as well. */
const CREDENTIAL_URLS = ['DATABASE_URL', 'REDIS_URL'];
const HEALTH_PORT_VARIABLE: Record<string, string> = { api: 'PORT', worker: 'WORKER_PORT' };
/** Ranges the workers may never reach (docs/decisions.md, Kubernetes): private, CGNAT, link-local, ULA. */
const DENIED_EGRESS: Record<string, string[]> = {
  '0.0.0.0/0': ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '100.64.0.0/10', '169.254.0.0/16'],
  '::/0': ['fc00::/7', 'fe80::/10'],
};
const COMPOSE_SERVICES = ['mariadb', 'redis', 'migrate', 'api', 'worker'];

const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string | undefined =>
  typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;
const at = (v: unknown, ...path: string[]): unknown => path.reduce((o, key) => obj(o)[key], v);

export function readDeployFiles(root: string): DeployFiles {
  const files: DeployFiles = new Map();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      // Only what is committed: docker/.env.local, the compose secrets, is never read.
      else if (/\.(ya?ml|Dockerfile)$/.test(name))
        files.set(relative(root, path).split('\\').join('/'), readFileSync(path, 'utf8'));
    }
  };
  walk(join(root, 'docker'));
  walk(join(root, 'k8s'));
  return files;
}

interface Manifest {
  file: string;
  doc: Obj;
}

/** Every problem found, as `file: message`; empty when all is well. */
export function checkDeployFiles(files: DeployFiles): string[] {
  const problems: string[] = [];
  const manifests: Manifest[] = [];
  for (const [file, text] of files) {
    if (file.endsWith('.Dockerfile')) problems.push(...checkDockerfile(file, text));
    else if (file.startsWith('k8s/') && file.endsWith('.yaml')) {
      const docs = parseYaml(file, text, problems);
      manifests.push(...docs.filter((d) => d !== null).map((d) => ({ file, doc: obj(d) })));
    }
  }
  const compose = files.get('docker/compose.yaml');
  if (compose === undefined) problems.push('docker/compose.yaml: missing');
  else problems.push(...checkCompose(parseYaml('docker/compose.yaml', compose, problems)[0], files));
  if (!files.has('k8s/kustomization.yaml')) problems.push('k8s/kustomization.yaml: missing');
  problems.push(...checkManifests(manifests, files));
  return problems;
}

function parseYaml(file: string, text: string, problems: string[]): unknown[] {
  return parseAllDocuments(text, { merge: true }).map((doc) => {
    for (const e of [...doc.errors, ...doc.warnings]) problems.push(`${file}: ${e.message}`);
    return doc.toJS() as unknown;
  });
}

function checkDockerfile(file: string, text: string): string[] {
  const strict = ValidationSeverity.ERROR;
  const diagnostics = lintDockerfile(text, {
    deprecatedMaintainer: strict,
    directiveCasing: strict,
    emptyContinuationLine: strict,
    instructionCasing: strict,
    instructionCmdMultiple: strict,
    instructionEntrypointMultiple: strict,
    instructionHealthcheckMultiple: strict,
    instructionJSONInSingleQuotes: strict,
    instructionWorkdirRelative: strict,
  });
  const problems = diagnostics.map(
    (d) =>
      `${file}:${d.range.start.line + 1}: ${typeof d.message === 'string' ? d.message : d.message.value}`,
  );
  // What the issue asks of every image, in its last (runtime) stage.
  const runtime = text.slice(text.lastIndexOf('\nFROM '));
  if (!/^USER\s+[1-9]\d*(:\d+)?\s*$/m.test(runtime))
    problems.push(`${file}: runtime stage needs a numeric non-root USER`);
  if (!/^ENTRYPOINT\s+\[\s*"\/usr\/bin\/tini"/m.test(runtime))
    problems.push(`${file}: runtime stage needs tini as ENTRYPOINT`);
  if (!/^HEALTHCHECK\s/m.test(runtime)) problems.push(`${file}: runtime stage needs a HEALTHCHECK`);
  return problems;
}

function checkManifests(manifests: Manifest[], files: DeployFiles): string[] {
  const problems: string[] = [];
  for (const { file, doc } of manifests) {
    const apiVersion = str(doc.apiVersion) ?? '';
    const kind = str(doc.kind) ?? '';
    if (KUSTOMIZE_KINDS[apiVersion]) {
      problems.push(...checkKustomization(file, doc, files, manifests));
      continue;
    }
    const exported = obj(CRD_MODELS[apiVersion] ?? builtInGroup(apiVersion))[kind];
    if (typeof exported !== 'function') {
      problems.push(`${file}: no schema for ${apiVersion} ${kind}`);
      continue;
    }
    try {
      new (exported as ModelClass)(doc).validate();
    } catch (err) {
      problems.push(`${file}: ${kind} ${str(at(doc, 'metadata', 'name'))}: ${(err as Error).message}`);
    }
  }
  const referenced = new Set(
    manifests
      .filter(({ doc }) => KUSTOMIZE_KINDS[str(doc.apiVersion) ?? ''])
      .flatMap(({ file, doc }) =>
        list(doc.resources).map((r) => posix.join(posix.dirname(file), str(r) ?? '')),
      ),
  );
  for (const file of new Set(manifests.map((m) => m.file)))
    if (!file.endsWith('/kustomization.yaml') && !file.endsWith('.template.yaml') && !referenced.has(file))
      problems.push(`${file}: not in any kustomization (name it *.template.yaml if it is applied by hand)`);
  for (const { file } of manifests.filter((m) => m.doc.kind === 'Kustomization')) {
    const included = kustomizedFiles(file, manifests);
    const targets = manifests
      .filter(
        (m) =>
          included.has(m.file) && ['HorizontalPodAutoscaler', 'ScaledObject'].includes(str(m.doc.kind) ?? ''),
      )
      .map((m) => str(at(m.doc, 'spec', 'scaleTargetRef', 'name')));
    for (const target of new Set(targets.filter((t, i) => targets.indexOf(t) !== i)))
      problems.push(`${file}: ${target} has two autoscalers (KEDA or HPA, not both)`);
  }
  return [...problems, ...checkWorkloads(manifests.map((m) => m.doc))];
}

/** The manifest files a kustomization builds from, through its directories and components. */
function kustomizedFiles(file: string, manifests: Manifest[]): Set<string> {
  const doc = manifests.find((m) => m.file === file)?.doc;
  const dir = posix.dirname(file);
  const files = new Set<string>();
  for (const entry of [...list(doc?.resources), ...list(doc?.components)].map((e) =>
    posix.join(dir, str(e) ?? ''),
  )) {
    const nested = `${entry}/kustomization.yaml`;
    const paths = manifests.some((m) => m.file === nested) ? kustomizedFiles(nested, manifests) : [entry];
    for (const path of paths) files.add(path);
  }
  return files;
}

/** kubernetes-models' namespace of an apiVersion: v1 -> v1, networking.k8s.io/v1 -> networkingK8sIo.v1. */
function builtInGroup(apiVersion: string): unknown {
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
  const name = group.replace(/\.(\w)/g, (_, c: string) => c.toUpperCase());
  return group ? at(kubernetes, name, version) : at(kubernetes, version);
}

function checkKustomization(file: string, doc: Obj, files: DeployFiles, manifests: Manifest[]): string[] {
  const problems: string[] = [];
  const kindWanted = KUSTOMIZE_KINDS[str(doc.apiVersion) ?? ''];
  if (doc.kind !== kindWanted) problems.push(`${file}: ${str(doc.apiVersion)} must be kind ${kindWanted}`);
  for (const key of Object.keys(doc))
    if (!KUSTOMIZE_FIELDS.has(key)) problems.push(`${file}: field ${key} is not one this validator knows`);
  const dir = posix.dirname(file);
  for (const entry of list(doc.resources).map(str)) {
    const path = posix.join(dir, entry ?? '');
    if (!files.has(path) && !files.has(`${path}/kustomization.yaml`))
      problems.push(`${file}: resource ${entry} not found`);
  }
  for (const entry of list(doc.components).map(str)) {
    const path = posix.join(dir, entry ?? '', 'kustomization.yaml');
    const component = manifests.find((m) => m.file === path);
    if (component?.doc.kind !== 'Component')
      problems.push(`${file}: component ${entry} is not a kustomize Component`);
  }
  return problems;
}

function checkWorkloads(docs: Obj[]): string[] {
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
function checkEnv(
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

function checkCompose(compose: unknown, files: DeployFiles): string[] {
  const where = 'docker/compose.yaml';
  const problems: string[] = [];
  const services = obj(at(compose, 'services'));
  const names = Object.keys(services).sort();
  if (names.join() !== [...COMPOSE_SERVICES].sort().join())
    problems.push(`${where}: services must be ${COMPOSE_SERVICES.join(', ')} (found ${names.join(', ')})`);
  for (const [name, value] of Object.entries(services)) {
    const service = obj(value);
    if (name !== 'migrate' && service.healthcheck === undefined)
      problems.push(`${where}: ${name} needs a healthcheck`);
    const schema = SCHEMAS[name];
    if (!schema) continue;
    const dockerfile = str(at(service, 'build', 'dockerfile'));
    if (at(service, 'build', 'context') !== '..' || !files.has(dockerfile ?? ''))
      problems.push(`${where}: ${name} must build a docker/*.Dockerfile from the repository root`);
    if (!str(service.image)) problems.push(`${where}: ${name} needs an image name`);
    const env = Object.fromEntries(
      Object.entries(obj(service.environment)).map(([k, v]) => [k, str(v) ?? '']),
    );
    const interpolated = new Set(Object.keys(env).filter((k) => env[k].includes('${')));
    problems.push(...checkEnv(`${where} ${name}`, schema, env, interpolated));
    for (const secret of SECRETS)
      if (secret in env && !interpolated.has(secret))
        problems.push(`${where}: ${name}: ${secret} must come from the env file`);
    if (name !== 'migrate') {
      const after = at(service, 'depends_on', 'migrate', 'condition');
      if (after !== 'service_completed_successfully')
        problems.push(`${where}: ${name} must wait for migrate to complete`);
    }
  }
  if (!str(at(services, 'worker', 'shm_size'))) problems.push(`${where}: worker needs shm_size for Chromium`);
  const securityOpt = list(at(services, 'worker', 'security_opt')).map(str);
  if (!securityOpt.some((o) => /^seccomp[=:].*scraper-chromium\.json$/.test(o ?? '')))
    problems.push(`${where}: worker needs security_opt seccomp=scraper-chromium.json for Chromium's sandbox`);
  return problems;
}

if (require.main === module) {
  // npm runs scripts from the package root.
  const files = readDeployFiles(process.cwd());
  const problems = checkDeployFiles(files);
  for (const p of problems) process.stderr.write(`${p}\n`);
  process.stdout.write(
    problems.length
      ? `validate:deploy: ${problems.length} problem(s)\n`
      : `validate:deploy: ${files.size} files under docker/ and k8s/ are valid\n`,
  );
  process.exitCode = problems.length ? 1 : 0;
}
