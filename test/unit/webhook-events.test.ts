// map.features_changed's data (api/webhookEvents.ts): the ids a change made, or — past
// MAX_EVENT_IDS, a large import or restore — their counts and `ids_omitted`, so a delivery stays
// small; an append whose ids are not at hand sends its count.
import { describe, expect, it } from 'vitest';
import { featuresAppended, featuresChanged } from '../../api/webhookEvents.js';
import { MAX_EVENT_IDS } from '../../lib/webhooks/model.js';

const range = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i);

describe('map.features_changed data', () => {
  it('lists the ids up to MAX_EVENT_IDS in all', () => {
    const ids = { added: range(1, MAX_EVENT_IDS - 2), changed: [MAX_EVENT_IDS + 1], deleted: [MAX_EVENT_IDS + 2] };
    expect(featuresChanged(7, 12, ids)).toEqual({
      type: 'map.features_changed',
      mapId: 7,
      data: { revision: 12, added_ids: ids.added, changed_ids: ids.changed, deleted_ids: ids.deleted },
    });
  });

  it('sends the counts and ids_omitted past MAX_EVENT_IDS', () => {
    const event = featuresChanged(7, 13, { added: range(1, MAX_EVENT_IDS), changed: [], deleted: [MAX_EVENT_IDS + 5] });
    expect(event.data).toEqual({ revision: 13, ids_omitted: true, added_count: MAX_EVENT_IDS, changed_count: 0, deleted_count: 1 });
  });

  it('an append: its ids when known, else its count; its event id the same for the same request, a UUID', () => {
    expect(featuresAppended('append:a', 7, 14, [3, 4], 2).data).toEqual({ revision: 14, added_ids: [3, 4], changed_ids: [], deleted_ids: [] });
    expect(featuresAppended('append:a', 7, 15, null, 50_000).data).toEqual({ revision: 15, ids_omitted: true, added_count: 50_000, changed_count: 0, deleted_count: 0 });
    const id = featuresAppended('append:a', 7, 14, [3], 1).id!;
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(featuresAppended('append:a', 7, 14, [3], 1).id).toBe(id);
    expect(featuresAppended('append:b', 7, 14, [3], 1).id).not.toBe(id);
  });
});
