#!/usr/bin/env sh
# Runs the shards, waits for all of them, then the merge (README: "Running on many machines").
#   deploy/kubernetes/run.sh [TIMEOUT]     default 1h; needs kubectl pointed at the cluster and the
#                                          simharness:latest image (deploy/Dockerfile) where it can pull it
set -eu
here=$(dirname "$0")
kubectl delete job simharness-shards simharness-merge --ignore-not-found
kubectl apply -f "$here/shards.yaml"
kubectl wait --for=condition=complete job/simharness-shards --timeout="${1:-1h}"
kubectl apply -f "$here/merge.yaml"
kubectl wait --for=condition=complete job/simharness-merge --timeout=10m || true
kubectl logs job/simharness-merge
