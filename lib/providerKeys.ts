// Provider keys: a user's own key for each kind of commercial basemap provider (the spec's
// provider keys page), used to fetch that provider's tiles for the user's maps. Checked when
// saved, never shown back whole (the key is the user's credential with the provider).
import { PROVIDER_KINDS, type ProviderKind } from './basemaps.js';
import { AppError } from './errors.js';

/** What each kind is called on the settings page, and what its field holds. */
/**
 * Each kind of provider key by the provider whose basemaps in the catalogue (lib/basemaps.ts) use
 * it — people know their key as "my Mapbox token", not by the spec's kind — and what the key is.
 */
export const PROVIDER_KIND_LABELS: Record<ProviderKind, string> = {
  map_platform: 'Mapbox (public token)',
  location_platform: 'HERE (API key)',
  gis_platform: 'Esri ArcGIS (API key)',
  tile_provider: 'Thunderforest (API key)',
};

const PUBLIC_TOKEN = /^pk\.[A-Za-z0-9._-]{20,2000}$/;
const API_KEY = /^[A-Za-z0-9._~+/=-]{8,512}$/;

/** The provider kind named, or invalid_arguments listing the kinds. */
export function providerKindOf(value: string): ProviderKind {
  if (!(PROVIDER_KINDS as readonly string[]).includes(value)) {
    throw new AppError('invalid_arguments', `The provider kind must be one of ${PROVIDER_KINDS.join(', ')}, not "${value}".`);
  }
  return value as ProviderKind;
}

/** The key as stored (surrounding spaces dropped), or invalid_provider_key saying what is wrong. */
export function validProviderKey(kindName: string, key: string): { kind: ProviderKind; key: string } {
  const kind = providerKindOf(kindName);
  const trimmed = key.trim();
  if (kind === 'map_platform') {
    if (trimmed.startsWith('sk.')) {
      throw new AppError('invalid_provider_key', 'This is a secret token (sk.…): the map platform needs a public token, which starts with "pk.".');
    }
    if (!PUBLIC_TOKEN.test(trimmed)) {
      throw new AppError('invalid_provider_key', 'The map platform needs a public token: it starts with "pk." followed by at least 20 letters, digits, ".", "_" or "-".');
    }
  } else if (!API_KEY.test(trimmed)) {
    throw new AppError('invalid_provider_key', `The ${PROVIDER_KIND_LABELS[kind]} key must have 8 to 512 letters, digits or . _ ~ + / = - and no spaces.`);
  }
  return { kind, key: trimmed };
}

/** How a saved key is shown: enough to recognise it, never enough to use it ("pk.eyJ…9Q1c"). */
export function maskedProviderKey(key: string): string {
  if (key.length < 16) return `…${key.slice(-2)}`;
  return `${key.slice(0, key.startsWith('pk.') ? 6 : 3)}…${key.slice(-4)}`;
}

/**
 * Why a map on a commercial basemap cannot be drawn on it: the key its owner must add, and where
 * (the settings page; until it exists, the operator command).
 */
export function missingProviderKeyError(basemap: { name: string; providerKind: ProviderKind }, ownerUsername: string): AppError {
  const kind = basemap.providerKind;
  const form = kind === 'map_platform' ? 'a public token starting with "pk."' : 'an API key';
  return new AppError(
    'provider_key_missing',
    `This map uses the basemap "${basemap.name}", which needs the owner's ${PROVIDER_KIND_LABELS[kind]} key (${form}). ` +
      `Add it under Settings → Map provider keys (an operator can run: npm run --silent admin -- set-provider-key --username ${ownerUsername} --kind ${kind} --key <key>), ` +
      'or move the map to a built-in basemap (classic, light or dark) with map/update.',
  );
}
