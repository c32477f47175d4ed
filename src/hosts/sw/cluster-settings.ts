// The simulated cluster's part of the browser host's settings: whether it runs, the
// `--controllers` selection, the nodes (count and size), the kubelet delay and the clock speed.
// Checked by the Node host's own flag parser, so a refusal reads exactly as `npm run serve`
// prints it, and turned into the core's options.
import type { ApiServerOptions } from '../../core/api';
import type { ClusterOptions } from '../../core/controllers/controller';
import { parseControllers } from '../../core/controllers/controllers-flag';
import { parseClusterFlag, type HostFlags } from '../node/flags';
import { DEFAULT_HOST_SETTINGS, type HostSettings } from './protocol';

export type ClusterSettings = Pick<HostSettings, 'clusterOn' | 'controllers' | 'nodes' | 'nodeCpu' | 'nodeMemory' | 'kubeletDelay' | 'clockSpeed'>;

export type CheckedCluster = { ok: true; settings: ClusterSettings; kubeletDelayMs: number } | { ok: false; error: string };

/** Validates the cluster fields of settings from the page (any JSON); absent fields keep their defaults. */
export function checkClusterSettings(raw: Record<string, unknown>): CheckedCluster {
  const d = DEFAULT_HOST_SETTINGS;
  const clusterOn = raw.clusterOn ?? d.clusterOn;
  const controllers = raw.controllers ?? d.controllers;
  const nodes = raw.nodes ?? d.nodes;
  const nodeCpu = raw.nodeCpu ?? d.nodeCpu;
  const nodeMemory = raw.nodeMemory ?? d.nodeMemory;
  const kubeletDelay = raw.kubeletDelay ?? d.kubeletDelay;
  const clockSpeed = raw.clockSpeed ?? d.clockSpeed;
  if (typeof clusterOn !== 'boolean') return { ok: false, error: 'clusterOn must be true or false' };
  if (typeof nodes !== 'number' || typeof clockSpeed !== 'number') return { ok: false, error: 'nodes and clockSpeed must be numbers' };
  if (typeof controllers !== 'string' || typeof nodeCpu !== 'string' || typeof nodeMemory !== 'string' || typeof kubeletDelay !== 'string') {
    return { ok: false, error: 'controllers, nodeCpu, nodeMemory and kubeletDelay must be strings' };
  }
  try {
    // kube-controller-manager checks the names in its options validation: the message comes unwrapped.
    parseControllers(controllers);
    const flags = {} as HostFlags;
    parseClusterFlag(flags, 'nodes', String(nodes));
    parseClusterFlag(flags, 'node-cpu', nodeCpu.trim());
    parseClusterFlag(flags, 'node-memory', nodeMemory.trim());
    parseClusterFlag(flags, 'kubelet-delay', kubeletDelay.trim());
    parseClusterFlag(flags, 'clock-speed', String(clockSpeed));
    return {
      ok: true,
      settings: { clusterOn, controllers: controllers.trim(), nodes: flags.nodes!, nodeCpu: flags.nodeCpu!, nodeMemory: flags.nodeMemory!, kubeletDelay: kubeletDelay.trim(), clockSpeed: flags.clockSpeed! },
      kubeletDelayMs: flags.kubeletDelayMs!,
    };
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
}

/**
 * The core options for the cluster settings. Off: no `controllers` at all, so the API's own
 * controllers (namespace, garbage collector, tokens) still run and nothing acts on pods, as in
 * the unit tests' cluster; `--controllers` with no names would stop those too.
 */
export function clusterOptionsFor(settings: ClusterSettings): Pick<ApiServerOptions, 'controllers' | 'cluster'> {
  if (!settings.clusterOn) return {};
  const checked = checkClusterSettings(settings as unknown as Record<string, unknown>);
  const cluster: Partial<ClusterOptions> = { nodes: settings.nodes, nodeCpu: settings.nodeCpu, nodeMemory: settings.nodeMemory };
  if (checked.ok) cluster.kubeletDelayMs = checked.kubeletDelayMs;
  return { controllers: settings.controllers || '*', cluster };
}
