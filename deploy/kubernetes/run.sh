#!/usr/bin/env sh
# Runs the shards, waits for all of them, then the merge (README: "Running on many machines").
#   deploy/kubernetes/run.sh [TIMEOUT [run|simulate]]
#       TIMEOUT   default 1h
#       run       shards.yaml and merge.yaml: `simharness run --shard` (the default)
#       simulate  simulate-shards.yaml and simulate-merge.yaml: `simharness simulate --shard`
#   Needs kubectl pointed at the cluster and the simharness:latest image (deploy/Dockerfile) where it can pull it.
set -eu
here=$(dirname "$0")
case "${2:-run}" in
    run) prefix="" job="simharness" ;;
    simulate) prefix="simulate-" job="simharness-simulate" ;;
    *) echo "usage: $0 [TIMEOUT [run|simulate]]" >&2; exit 2 ;;
esac
kubectl delete job "$job-shards" "$job-merge" --ignore-not-found
kubectl apply -f "$here/${prefix}shards.yaml"
kubectl wait --for=condition=complete "job/$job-shards" --timeout="${1:-1h}"
kubectl apply -f "$here/${prefix}merge.yaml"
kubectl wait --for=condition=complete "job/$job-merge" --timeout=10m || true
kubectl logs "job/$job-merge"
