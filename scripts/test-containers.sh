#!/usr/bin/env bash
# `npm run test:containers`: builds both images with podman (podman's layer cache reuses what has
# not changed) and runs test/container against them: the migrations from the API image, the API
# and a worker as containers as Kubernetes runs them, a worker stopped mid-batch, the Deployments
# of k8s/ under `podman kube play`. Needs podman and kubectl (for `kubectl kustomize`), and
# MariaDB and Redis on 127.0.0.1 as the main suite does. NODE_IMAGE swaps the base image (a local
# build where no registry can be reached); API_IMAGE and WORKER_IMAGE name the images built.
set -euo pipefail
cd "$(dirname "$0")/.."
for tool in podman kubectl; do
  command -v "$tool" >/dev/null || { echo "test:containers needs $tool" >&2; exit 1; }
done
export API_IMAGE=${API_IMAGE:-scraper-api:local} WORKER_IMAGE=${WORKER_IMAGE:-scraper-worker:local}

# Whatever a test started is gone at the end, also when jest was killed or a test failed.
cleanup() {
  podman ps -aq --filter label=scraper-container-test | xargs -r podman rm -f -t 5 >/dev/null || true
  # test/container/kube-play.container-spec.ts's pods, volumes and secret, by the names podman gives them.
  podman pod rm -f -i -t 5 scraper-api-pod-0 scraper-worker-pod-0 >/dev/null || true
  podman volume rm -f scraper-api-tmp scraper-worker-tmp scraper-worker-dshm >/dev/null 2>&1 || true
  podman secret rm scraper-secrets >/dev/null 2>&1 || true
}
trap cleanup EXIT

build() { # Dockerfile, image
  local started=$SECONDS
  # docker format keeps the HEALTHCHECK (OCI images have none).
  podman build --format docker --network host ${NODE_IMAGE:+--build-arg "NODE_IMAGE=$NODE_IMAGE"} -f "docker/$1" -t "$2" .
  echo "$2: built in $((SECONDS - started)) s, $(podman image inspect --format '{{.Size}}' "$2" | numfmt --to=si) bytes"
}
started=$SECONDS
build api.Dockerfile "$API_IMAGE"
build worker.Dockerfile "$WORKER_IMAGE"
npx jest -c jest.containers.config.js --runInBand
echo "test:containers: $((SECONDS - started)) s, image builds included"
