// Feature properties built from names found in a file (KML ExtendedData, …): such names never
// replace the properties the converter sets itself, and never touch a prototype.

/** Names that would reach an object's prototype machinery; data with these names is dropped. */
export const PROTOTYPE_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Sets `properties[key] = value` as an own data property, unless the key is empty, names a
 * prototype key, or is one of `reserved` (the converter's own properties). Returns whether it
 * was set.
 */
export function setDataProperty(
  properties: Record<string, unknown>,
  key: string,
  value: unknown,
  reserved: ReadonlySet<string>,
): boolean {
  if (key === '' || PROTOTYPE_KEYS.has(key) || reserved.has(key)) return false;
  // With __proto__ excluded, plain assignment always creates an own data property (every other
  // member of Object.prototype is a writable data property).
  properties[key] = value;
  return true;
}
