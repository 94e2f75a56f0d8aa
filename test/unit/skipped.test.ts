import { describe, expect, it } from 'vitest';
import { MAX_REPORTED_SKIPS, SkipList, capSkipped } from '../../lib/formats/skipped.js';

describe('capSkipped', () => {
  it('keeps short lists as they are', () => {
    const skipped = [{ reason: 'no coordinates', line: 3 }];
    expect(capSkipped(skipped)).toBe(skipped);
  });

  it('reports the first items one by one and counts the rest', () => {
    const skipped = Array.from({ length: MAX_REPORTED_SKIPS + 5 }, (_, i) => ({ reason: 'bad latitude', line: i + 2 }));
    const capped = capSkipped(skipped);
    expect(capped).toHaveLength(MAX_REPORTED_SKIPS + 1);
    expect(capped[MAX_REPORTED_SKIPS - 1]).toEqual({ reason: 'bad latitude', line: MAX_REPORTED_SKIPS + 1 });
    expect(capped.at(-1)).toEqual({ reason: 'and 5 more items skipped' });
  });
});

describe('SkipList and capSkipped together', () => {
  it('count every skip once, however often a report is capped again with notes added', () => {
    const list = new SkipList();
    for (let index = 0; index < 5000; index++) list.add(`waypoint ${index}: bad latitude`, index + 2);
    const report = list.result();
    expect(report).toHaveLength(MAX_REPORTED_SKIPS + 1);
    expect(report.at(-1)).toEqual({ reason: 'and 4900 more items skipped' });
    expect(capSkipped(report)).toEqual(report);
    const withNotes = capSkipped([...report, { reason: 'photo.jpg: not an image' }, { reason: 'icon.png: too large' }]);
    expect(withNotes).toHaveLength(MAX_REPORTED_SKIPS + 1);
    expect(withNotes.at(-1)).toEqual({ reason: 'and 4902 more items skipped' });
    expect(list.first).toEqual({ reason: 'waypoint 0: bad latitude', line: 2 });
  });

  it('adds notes to a short report in place', () => {
    const list = new SkipList();
    list.add('row 3 skipped: no latitude', 3);
    expect(capSkipped([...list.result(), { reason: 'row 4: colour "x" is not a colour' }])).toHaveLength(2);
  });
});
