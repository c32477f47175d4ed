// What the store's context knows of the simulated kubelets: they answer pods/log for the pods on
// their nodes (controllers/pod-logs.ts implements it; handlers/pod-logs.ts parses the options).
import type { ApiResponse } from '../meta/types';
import type { Obj } from './objects';

/** PodLogOptions as the API parses them from the query. */
export interface PodLogOptions {
  container: string;
  follow: boolean;
  previous: boolean;
  timestamps: boolean;
  tailLines?: number;
  limitBytes?: number;
  sinceSeconds?: number;
  /** Milliseconds since the epoch. */
  sinceTime?: number;
}

/** The kubelets a host simulates: they answer pods/log for their nodes. */
export interface KubeletLogs {
  serves(nodeName: string): boolean;
  /** The log of one container, or a kubelet error (a 400 Status, as the apiserver relays it). */
  log(pod: Obj, container: string, opts: PodLogOptions): ApiResponse;
}
