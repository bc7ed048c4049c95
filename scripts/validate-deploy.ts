// `npm run validate:deploy`: checks docker/ and k8s/ offline, as CI can (no cluster, no Docker
// engine): every Kubernetes object against its schema, the kustomizations, each container's
// environment against the app's config schema, probes, scaling and egress policy, compose.yaml as
// data, and the Dockerfiles with dockerfile-utils. Prints one line a problem; exits 1 on any.
import 'reflect-metadata';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, posix, relative } from 'node:path';
import { ValidationSeverity, validate as lintDockerfile } from 'dockerfile-utils';
import { parseAllDocuments } from 'yaml';
import * as keda from '@kubernetes-models/keda/keda.sh/v1alpha1';
import * as kubernetes from 'kubernetes-models';
import { type Obj, at, list, obj, str } from './validate-deploy/values';
import { SCHEMAS, SECRETS, checkEnv, checkWorkloads } from './validate-deploy/workloads';

/** Repository-relative path (posix) -> text of the YAML files and Dockerfiles under docker/ and k8s/. */
export type DeployFiles = Map<string, string>;

type ModelClass = new (data: object) => { validate(): void };

/** Custom resources the manifests use; built-in kinds come from kubernetes-models by apiVersion. */
const CRD_MODELS: Record<string, object> = { 'keda.sh/v1alpha1': keda };
const KUSTOMIZE_KINDS: Record<string, string> = {
  'kustomize.config.k8s.io/v1beta1': 'Kustomization',
  'kustomize.config.k8s.io/v1alpha1': 'Component',
};
const KUSTOMIZE_FIELDS = new Set(['apiVersion', 'kind', 'namespace', 'resources', 'components', 'images']);

const COMPOSE_SERVICES = ['mariadb', 'redis', 'migrate', 'api', 'worker'];

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
