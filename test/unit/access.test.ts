import { describe, expect, it } from 'vitest';
import { accessTo, canEdit, canView } from '../../lib/access.js';
import { newLinkKey } from '../../lib/linkKeys.js';

const KEY = newLinkKey();
const map = (visibility: 'public' | 'unlisted' | 'private' | 'select', collaborate = false) => ({ ownerId: 1, visibility, collaborate, linkKey: visibility === 'unlisted' ? KEY : null });

describe('accessTo', () => {
  it('gives the owner full access whatever the visibility', () => {
    for (const v of ['public', 'unlisted', 'private', 'select'] as const) expect(accessTo(map(v), 1, undefined)).toBe('owner');
  });

  it('lets anyone view public maps, and unlisted ones with their link key, but not edit them', () => {
    expect(accessTo(map('public'), 2, undefined)).toBe('viewer');
    expect(accessTo(map('unlisted'), 2, undefined, KEY)).toBe('viewer');
    expect(canEdit(accessTo(map('public'), 2, undefined))).toBe(false);
  });

  it('shows an unlisted map to nobody else without its key: none, another key, a key of another form', () => {
    for (const given of [undefined, newLinkKey(), KEY.toLowerCase(), `${KEY}A`, '']) expect(accessTo(map('unlisted'), 2, undefined, given)).toBe('none');
    // A key opens only an unlisted map.
    expect(accessTo({ ...map('private'), linkKey: KEY }, 2, undefined, KEY)).toBe('none');
    // The owner, the editors and the people the owner named need none.
    expect(accessTo(map('unlisted', true), 2, 'editor')).toBe('editor');
    expect(accessTo(map('unlisted', false), 2, 'editor')).toBe('viewer');
    expect(accessTo(map('unlisted'), 2, 'viewer')).toBe('viewer');
  });

  it('counts viewers only on select maps and editors only with collaboration on', () => {
    expect(accessTo(map('select'), 2, 'viewer')).toBe('viewer');
    expect(accessTo(map('private'), 2, 'viewer')).toBe('none');
    expect(accessTo(map('private', true), 2, 'editor')).toBe('editor');
    expect(accessTo(map('private', false), 2, 'editor')).toBe('none');
    expect(accessTo(map('public', false), 2, 'editor')).toBe('viewer');
    expect(canView(accessTo(map('select'), 3, undefined))).toBe(false);
  });
});
