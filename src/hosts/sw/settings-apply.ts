// The browser host's API settings (--runtime-config, --feature-gates, access control and
// --history-window): checked as kube-apiserver checks its flags at start-up (with
// the Node host's wording, so a learner sees the same message in both), turned into core
// options, and applied by restarting the API over the same storage. Refused settings leave the
// previous ones in force; so does a restart that fails after all.
import type { ApiServerOptions } from '../../core/api';
import { builtinResources } from '../../core/schema';
import { invalidFlagArgument, parseRuntimeConfig, StartupError } from '../../core/server/runtime-config';
import { parseFeatureGates } from '../../core/server/runtime-config-gates';
import { parseHistoryWindow } from '../../core/server/history-window';
import type { ApiRuntime } from './api-runtime';
import type { PlaygroundClock } from '../../core/controllers/clock';
import { checkClusterSettings, clusterOptionsFor } from './cluster-settings';
import type { SettingsStore } from './settings-store';
import { DEFAULT_HOST_SETTINGS, type HostSettings, type SettingsAnswer } from './protocol';

export type CheckedSettings = { ok: true; settings: HostSettings; warnings: string[] } | { ok: false; error: string };

/** Runs a flag's parser on the text; its StartupError becomes the message `npm run serve` prints. */
function checkFlag<T>(flag: string, value: string, parse: (text: string) => T): { ok: true; value: T } | { ok: false; error: string } {
  try {
    return { ok: true, value: parse(value) };
  } catch (err) {
    if (err instanceof StartupError) return { ok: false, error: invalidFlagArgument(flag, value, err) };
    throw err;
  }
}

/** Validates settings from the page (any JSON); the error text is the start-up error. */
export function checkSettings(input: unknown): CheckedSettings {
  const raw = (input && typeof input === 'object' ? input : {}) as Record<string, unknown>;
  const runtimeConfig = raw.runtimeConfig ?? '';
  const featureGates = raw.featureGates ?? '';
  const accessControl = raw.accessControl ?? 'off';
  const historyWindow = raw.historyWindow ?? '';
  if (typeof runtimeConfig !== 'string' || typeof featureGates !== 'string' || typeof historyWindow !== 'string') return { ok: false, error: 'runtimeConfig, featureGates and historyWindow must be strings' };
  if (accessControl !== 'off' && accessControl !== 'RBAC') return { ok: false, error: `access control ${JSON.stringify(accessControl)}: want off or RBAC` };
  const config = checkFlag('runtime-config', runtimeConfig, (text) => parseRuntimeConfig(text, builtinResources));
  if (!config.ok) return config;
  const gates = checkFlag('feature-gates', featureGates, parseFeatureGates);
  if (!gates.ok) return gates;
  const window = historyWindow.trim();
  if (window) {
    const parsed = checkFlag('history-window', window, parseHistoryWindow);
    if (!parsed.ok) return parsed;
  }
  const cluster = checkClusterSettings(raw);
  if (!cluster.ok) return cluster;
  return { ok: true, settings: { runtimeConfig: runtimeConfig.trim(), featureGates: featureGates.trim(), accessControl, historyWindow: window, ...cluster.settings }, warnings: gates.value.warnings };
}

/** The core options for settings: no authenticator in either mode, so the page is always the admin. */
export function apiOptionsFor(settings: HostSettings): Pick<ApiServerOptions, 'runtimeConfig' | 'featureGates' | 'authorization' | 'historyWindowMs' | 'controllers' | 'cluster'> {
  return {
    ...clusterOptionsFor(settings),
    runtimeConfig: settings.runtimeConfig || undefined,
    featureGates: settings.featureGates || undefined,
    authorization: settings.accessControl === 'RBAC' ? 'RBAC' : 'AlwaysAllow',
    historyWindowMs: settings.historyWindow ? parseHistoryWindow(settings.historyWindow) : undefined,
  };
}

/**
 * The options for the next start from the store. Saved settings that no longer pass (a newer
 * build dropped a gate) are not allowed to keep the API from starting: the defaults apply and
 * `onInvalid` hears why. The worker's one clock (kept across restarts, so cluster time goes on)
 * takes the saved speed and is handed to the server.
 */
export async function startupOptions(store: SettingsStore, onInvalid: (error: string) => void, clock?: PlaygroundClock): Promise<ReturnType<typeof apiOptionsFor> & Pick<ApiServerOptions, 'clock'>> {
  const checked = checkSettings(await store.load());
  if (!checked.ok) onInvalid(`saved settings ignored: ${checked.error}`);
  const settings = checked.ok ? checked.settings : DEFAULT_HOST_SETTINGS;
  clock?.setSpeed(settings.clockSpeed);
  return { ...apiOptionsFor(settings), ...(clock ? { clock } : {}) };
}

/** The settings in force, for `GET settings`. */
export async function currentSettings(store: SettingsStore): Promise<SettingsAnswer> {
  const settings = await store.load();
  const checked = checkSettings(settings);
  return { settings, warnings: checked.ok ? checked.warnings : [] };
}

/** Checks, saves and restarts; on any failure the previous settings are saved back and restarted. */
export async function applySettings(runtime: ApiRuntime, store: SettingsStore, input: unknown): Promise<SettingsAnswer> {
  const previous = await store.load();
  const checked = checkSettings(input);
  if (!checked.ok) return { settings: previous, error: checked.error, warnings: [] };
  const started = performance.now();
  await store.save(checked.settings);
  try {
    await runtime.restart();
  } catch (err) {
    await store.save(previous);
    await runtime.restart();
    return { settings: previous, error: err instanceof Error ? err.message : String(err), warnings: [] };
  }
  return { settings: checked.settings, warnings: checked.warnings, restartMs: Math.round(performance.now() - started) };
}
