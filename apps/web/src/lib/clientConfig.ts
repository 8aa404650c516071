import type { BasemapConfig, ClientConfigAnswer } from '@crp/contracts';
import { request } from '../api/http';

/**
 * The server configuration the web app needs before it draws (`GET /api/config/`): loaded once at start-up. When the
 * call fails the app runs with the defaults (the offline basemap), so a slow or old server never blocks the login.
 */
let basemap: BasemapConfig = { style_url: null, pmtiles_url: null, labels: false };

export async function loadClientConfig(timeoutMs = 3000): Promise<void> {
  try {
    const res = await request<ClientConfigAnswer>('GET', '/api/config/', { auth: false, sessionCall: false, signal: AbortSignal.timeout(timeoutMs) });
    basemap = res.data.basemap;
  } catch (err) {
    console.warn('Server configuration not loaded; using the offline basemap', err);
  }
}

/** The configured basemap (both null: the offline Natural Earth basemap). */
export function basemapConfig(): BasemapConfig {
  return basemap;
}
