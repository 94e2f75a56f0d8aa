// The editor's JSON endpoints (api/web/editorEndpoints/) as their descriptors say: each documented
// in docs/web-app.md by its method and address, one route each, every write a POST.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EDITOR_ENDPOINTS } from '../../api/web/editorEndpoints/index.js';

const docs = fs.readFileSync(new URL('../../docs/web-app.md', import.meta.url), 'utf8');
/** "/maps/:id/versions/:version/restore" as the docs write it: "/maps/{id}/versions/{version}/restore". */
const documented = (path: string) => path.replace(/:([a-z]+)/g, '{$1}');

describe("the editor's JSON endpoints", () => {
  it('are each described in docs/web-app.md by method and address', () => {
    const missing = EDITOR_ENDPOINTS.map((e) => `${e.method.toUpperCase()} ${documented(e.path)}`).filter((line) => !docs.includes(line));
    expect(missing).toEqual([]);
  });

  it('have one route each, and each says what it is sent and what it answers', () => {
    const routes = EDITOR_ENDPOINTS.map((e) => `${e.method} ${e.path}`);
    expect(new Set(routes).size).toBe(routes.length);
    for (const endpoint of EDITOR_ENDPOINTS) {
      expect(endpoint.summary.length).toBeGreaterThan(10);
      expect(endpoint.answers.length).toBeGreaterThan(5);
      // A request with a body changes something: a POST, under the same-origin check.
      if (endpoint.sends !== 'nothing') expect(endpoint.method).toBe('post');
    }
  });
});
