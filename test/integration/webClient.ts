// A browser for the web pages' tests without a browser: keeps cookies, sends forms with the
// page's CSRF token the way a page's own form does, follows no redirect by itself.
import { expect } from 'vitest';
import { startSmtpInbox, type SmtpInbox } from '../support/smtpInbox.js';
import { startTestService, type TestService } from './harness.js';

/** A browser: keeps cookies, sends forms with the page's CSRF token, follows nothing by itself. */
export class Browser {
  constructor(private readonly base: string) {}

  private cookies = new Map<string, string>();
  /** Each browser its own address (the service trusts X-Forwarded-For, as behind a proxy), so per-IP limits stay out of the way. */
  readonly ip = `10.0.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
  lastSetCookies: string[] = [];

  async request(path: string, init: { method?: string; form?: Record<string, string>; json?: unknown; multipart?: FormData; headers?: Record<string, string> } = {}) {
    const response = await fetch(`${this.base}${path}`, {
      method: init.method ?? (init.form || init.json !== undefined || init.multipart ? 'POST' : 'GET'),
      redirect: 'manual',
      headers: {
        cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        'sec-fetch-site': 'same-origin',
        'x-forwarded-for': this.ip,
        ...(init.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        ...(init.json !== undefined ? { 'content-type': 'application/json' } : {}),
        ...init.headers,
      },
      // A multipart form gets its Content-Type (with the boundary) from fetch.
      body: init.form ? new URLSearchParams(init.form).toString() : init.json !== undefined ? JSON.stringify(init.json) : init.multipart,
    });
    this.lastSetCookies = response.headers.getSetCookie();
    for (const line of this.lastSetCookies) {
      const [pair] = line.split(';');
      const [name, value] = pair!.split('=');
      if (value) this.cookies.set(name!, value);
      else this.cookies.delete(name!);
    }
    return { status: response.status, headers: response.headers, html: await response.text() };
  }

  /** Opens the page, then posts its form (the CSRF token from the page) with these fields. */
  async submit(pagePath: string, action: string, fields: Record<string, string>) {
    const page = await this.request(pagePath);
    const token = /name="_csrf" value="([^"]+)"/.exec(page.html)?.[1];
    expect(token).toBeTruthy();
    return this.request(action, { form: { _csrf: token!, ...fields } });
  }

  cookie(name: string): string | undefined {
    return this.cookies.get(name);
  }
}


/**
 * A new verified account of the service (the harness's users have the password "correct horse"),
 * logged in in a Browser, with its API key; with `formToken`, the form token's cookie is set too
 * (the editor's JSON routes read it from X-CSRF-Token).
 */
export async function loggedInAccount(
  service: { url: string; newUser(): Promise<{ username: string; userId: number; key: string }> },
  { formToken = false } = {},
) {
  const user = await service.newUser();
  const browser = new Browser(service.url);
  expect((await browser.submit('/login', '/login', { login: user.username, password: 'correct horse' })).status).toBe(302);
  if (formToken) await browser.request('/settings');
  return { ...user, browser };
}

/**
 * A map shared for collaboration, as the "who may change it" tests want it: a new owner's map
 * (made by `newMap` with the owner's key) with an editor and a viewer among its members,
 * visibility 'select' and collaboration on, and a stranger with no part in it; each person a
 * loggedInAccount with the form token. `collaborationOff` turns collaboration off and makes the
 * map public, so the editor still sees it and is refused as a mere reader (403), not told it is
 * not there.
 */
export async function collaborationMap(
  service: Pick<TestService, 'url' | 'newUser' | 'db'>,
  newMap: (ownerKey: string) => Promise<number>,
) {
  const account = () => loggedInAccount(service, { formToken: true });
  const owner = await account();
  const editor = await account();
  const viewer = await account();
  const stranger = await account();
  const mapId = await newMap(owner.key);
  await service.db('map_members').insert([
    { map_id: mapId, user_id: editor.userId, role: 'editor' },
    { map_id: mapId, user_id: viewer.userId, role: 'viewer' },
  ]);
  await service.db('maps').where({ id: mapId }).update({ visibility: 'select', collaborate: true });
  const collaborationOff = async () => {
    await service.db('maps').where({ id: mapId }).update({ visibility: 'public', collaborate: false });
  };
  return { owner, editor, viewer, stranger, mapId, collaborationOff };
}

/** A test service whose mail goes to a local SMTP inbox (the account pages' tests read the links it sends). */
export async function startServiceWithInbox(): Promise<{ service: TestService; inbox: SmtpInbox }> {
  const inbox = await startSmtpInbox();
  const service = await startTestService({ config: { smtpUrl: inbox.url, mailFrom: 'Maps <maps@example.test>' } });
  return { service, inbox };
}

export async function stopServiceWithInbox({ service, inbox }: { service?: TestService; inbox?: SmtpInbox }): Promise<void> {
  await service?.stop();
  await inbox?.close();
}
