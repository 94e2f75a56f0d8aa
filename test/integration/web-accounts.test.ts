// The account pages end to end over HTTP, with a real SMTP server on loopback receiving the
// service's mail: sign up → the mail's link makes the account → log in → the API accepts its key;
// log in and out with sessions (httpOnly, SameSite=Lax, a new token per log-in); password reset
// (single use, same answer for unknown addresses, every session ended); e-mail change
// re-verified; CSRF and rate limits; the security headers of every page. What an address's
// account cannot be told by: web-account-enumeration.test.ts; the log-in limits:
// web-login-limits.test.ts; the change of address: web-email-change.test.ts.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../lib/accounts.js';
import { accountRepository } from '../../db/accounts.js';
import { RATE_LIMITS } from '../../lib/accountLimits.js';
import { inOneWindow } from '../support/limitWindows.js';
import { linkIn, type Mail, type SmtpInbox } from '../support/smtpInbox.js';
import type { TestService } from './harness.js';
import { Browser, loggedInAccount, startServiceWithInbox, stopServiceWithInbox } from './webClient.js';

let service: TestService;
let inbox: SmtpInbox;

beforeAll(async () => ({ service, inbox } = await startServiceWithInbox()));
afterAll(() => stopServiceWithInbox({ service, inbox }));

/** The link of a mail as a path of the service (the browser here asks the service itself). */
const pathIn = (mail: Mail): string => {
  const url = new URL(linkIn(mail));
  return url.pathname + url.search;
};
const mailTo = (address: string, subject: string) => inbox.mailTo(address, subject);

let counter = 0;
const newName = () => `web${Date.now().toString(36)}${counter++}`;

describe('web accounts', () => {
  it("signs up: the mail's link makes the account with its address verified, and the API accepts its key", async () => {
    const browser = new Browser(service.url);
    const username = newName();
    const email = `${username}@example.test`;
    const signUp = await browser.submit('/signup', '/signup', { username, email, password: 'correct horse battery' });
    expect(signUp.status).toBe(201);
    expect(signUp.html).toContain('Check your e-mail');
    // Nothing is made, and nobody logged in, until the link is opened.
    expect(browser.cookie('mps_session')).toBeUndefined();
    expect(await service.db('users').where({ username }).first()).toBeUndefined();

    const mail = await mailTo(email, 'Verify your e-mail address');
    expect(mail.text).toContain(`${service.url}/verify?token=`);
    const made = await browser.request(pathIn(mail));
    expect(made.status).toBe(200);
    expect(made.html).toContain(`Your account ${username} is ready`);
    expect(made.html).toContain(`name="login" type="text" value="${username}"`);
    // Single use.
    const again = await browser.request(pathIn(mail));
    expect([again.status, again.html.includes('This link does not work')]).toEqual([400, true]);

    const login = await browser.submit('/login', '/login', { login: username, password: 'correct horse battery' });
    expect(login.status).toBe(302);
    expect(browser.lastSetCookies.find((c) => c.startsWith('mps_session='))).toMatch(/HttpOnly/i);
    expect(browser.lastSetCookies.find((c) => c.startsWith('mps_session='))).toMatch(/SameSite=Lax/i);
    expect((await browser.request('/settings')).html).toContain('<span class="badge">verified</span>');
    const { key } = await createApiKey(accountRepository(service.db), username, 'test');
    expect((await service.call('map/list', key, {})).error).toBeUndefined();
  });

  it('refuses bad sign-ups with the form again and a message', async () => {
    const browser = new Browser(service.url);
    const taken = newName();
    await browser.submit('/signup', '/signup', { username: taken, email: `${taken}@example.test`, password: 'long enough pw' });
    const cases: [Record<string, string>, number, string][] = [
      [{ username: 'x', email: 'a@example.test', password: 'long enough pw' }, 400, 'a username has 2 to 40 letters'],
      [{ username: 'settings', email: 'b@example.test', password: 'long enough pw' }, 400, 'reserved'],
      [{ username: newName(), email: 'not-an-address', password: 'long enough pw' }, 400, 'not a valid e-mail address'],
      [{ username: newName(), email: 'c@example.test', password: 'short' }, 400, 'at least 8 characters'],
      // Held by its waiting sign-up (an address taken or not is never said: web-account-enumeration.test.ts).
      [{ username: taken.toUpperCase(), email: 'd@example.test', password: 'long enough pw' }, 409, 'already taken'],
    ];
    for (const [fields, status, message] of cases) {
      const answer = await new Browser(service.url).submit('/signup', '/signup', fields);
      expect([answer.status, answer.html.includes(message)], JSON.stringify(fields)).toEqual([status, true]);
      expect(answer.html).toContain('<form method="post" action="/signup">');
    }
    // Every field's problem at once, under its field, the field marked invalid; what was typed kept but the password.
    const all = await new Browser(service.url).submit('/signup', '/signup', { username: 'x', email: 'not-an-address', password: 'short' });
    expect(all.status).toBe(400);
    expect(all.html).toContain('Nothing was sent: 3 fields need correcting, as said under each.');
    for (const field of ['username', 'email', 'password']) {
      expect(all.html).toMatch(new RegExp(`<input id="${field}"[^>]*aria-describedby="${field}-error ${field}-hint"[^>]*aria-invalid="true"`));
      expect(all.html).toMatch(new RegExp(`<small id="${field}-error" class="field-error">[^<]+</small>`));
    }
    expect(all.html).toContain('value="not-an-address"');
    expect(all.html).not.toContain('value="short"');
  });

  it('logs in with the username or the address, with a new session each time, and logs out', async () => {
    const { username } = await service.newUser();
    const email = `${username}@example.com`;
    const browser = new Browser(service.url);
    const wrong = await browser.submit('/login', '/login', { login: username, password: 'wrong password' });
    expect([wrong.status, wrong.html.includes('do not match an account')]).toEqual([401, true]);
    const unknown = await browser.submit('/login', '/login', { login: 'nobody-here', password: 'wrong password' });
    expect(unknown.html).toContain('do not match an account'); // the same message: no account enumeration
    const ok = await browser.submit('/login', '/login', { login: email.toUpperCase(), password: 'correct horse' });
    expect([ok.status, ok.headers.get('location')]).toEqual([302, '/settings']);
    const first = browser.cookie('mps_session');
    expect((await browser.request('/settings')).html).toContain(username);
    const offsite = await browser.submit('/reset', '/login', { login: username, password: 'correct horse', next: '//evil.example/x' });
    expect(offsite.headers.get('location')).toBe('/settings'); // never to another site
    expect(browser.cookie('mps_session')).not.toBe(first); // regenerated at log-in
    const stale = new Browser(service.url);
    await stale.request('/', { headers: { cookie: `mps_session=${first}` } });
    // The earlier token no longer opens the settings.
    const redirected = await fetch(`${service.url}/settings`, { redirect: 'manual', headers: { cookie: `mps_session=${first}` } });
    expect(redirected.status).toBe(302);
    const loggedOut = await browser.submit('/settings', '/logout', {});
    expect([loggedOut.status, loggedOut.headers.get('location')]).toEqual([302, '/']);
    expect((await browser.request('/settings')).status).toBe(302);
  });

  it('resets a password by e-mail: the same answer for unknown addresses, single use, every session ended', async () => {
    const { username } = await service.newUser();
    const email = `${username}@example.com`;
    const browser = new Browser(service.url);
    await browser.submit('/login', '/login', { login: username, password: 'correct horse' });
    const elsewhere = new Browser(service.url);
    await elsewhere.submit('/login', '/login', { login: username, password: 'correct horse' });
    const unknownAnswer = await new Browser(service.url).submit('/reset', '/reset', { email: 'nobody@example.test' });
    const knownAnswer = await new Browser(service.url).submit('/reset', '/reset', { email });
    expect(knownAnswer.status).toBe(unknownAnswer.status);
    expect(knownAnswer.html.replace(/value="[^"]+"/g, '')).toBe(unknownAnswer.html.replace(/value="[^"]+"/g, ''));
    const mail = await mailTo(email, 'Reset your password');
    const link = pathIn(mail);
    const reset = await new Browser(service.url).submit(link, link, { password: 'new password!' });
    expect([reset.status, reset.html.includes('every session of your account ended')]).toEqual([200, true]);
    expect((await elsewhere.request('/settings')).status).toBe(302);
    expect((await browser.request('/settings')).status).toBe(302);
    const reused = await new Browser(service.url).submit(link, link, { password: 'another password' });
    expect([reused.status, reused.html.includes('This link is not valid')]).toEqual([400, true]);
    const login = await new Browser(service.url).submit('/login', '/login', { login: username, password: 'new password!' });
    expect(login.status).toBe(302);
  });

  it('changes the e-mail address only once the new one is verified', async () => {
    const { username, browser } = await loggedInAccount(service);
    const changed = await browser.submit('/settings', '/settings/email', { email: `${username}.new@example.test`, password: 'correct horse' });
    expect(changed.html).toContain('waiting for its link to be opened');
    expect(changed.html).toContain(`${username}@example.com`);
    await browser.request(pathIn(await mailTo(`${username}.new@example.test`, 'Verify your e-mail address')));
    const settings = await browser.request('/settings');
    expect(settings.html).toContain(`${username}.new@example.test`);
    expect(settings.html).not.toContain('waiting for its link');
  });

  it('refuses a cross-site form post and a post without the token', async () => {
    const browser = new Browser(service.url);
    await browser.request('/signup');
    const crossSite = await browser.request('/signup', {
      form: { username: newName(), email: 'x@example.test', password: 'long enough pw', _csrf: browser.cookie('mps_csrf')! },
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect([crossSite.status, crossSite.html.includes('This form was refused')]).toEqual([403, true]);
    // An older browser sends no Sec-Fetch-Site, but the Origin of the page the form was on.
    const otherOrigin = await new Promise<number>((resolve, reject) => {
      const body = new URLSearchParams({ login: 'a', password: 'b', _csrf: browser.cookie('mps_csrf')! }).toString();
      const request = http.request(`${service.url}/login`, {
        method: 'POST',
        headers: { origin: 'https://evil.example', cookie: `mps_csrf=${browser.cookie('mps_csrf')}`, 'content-type': 'application/x-www-form-urlencoded' },
      });
      request.on('response', (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      request.on('error', reject);
      request.end(body);
    });
    expect(otherOrigin).toBe(403);
    const noToken = await browser.request('/login', { form: { login: 'a', password: 'b' } });
    expect(noToken.status).toBe(403);
  });

  it('limits log-in attempts per account', async () => {
    const { username } = await service.newUser();
    await inOneWindow(RATE_LIMITS.loginPerAccount.windowMs);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await new Browser(service.url).submit('/login', '/login', { login: username, password: 'wrong' })).status);
    expect(statuses.slice(0, 10).every((status) => status === 401)).toBe(true);
    const limited = await new Browser(service.url).submit('/login', '/login', { login: username, password: 'correct horse' });
    expect([statuses[10], limited.status, limited.html.includes('Too many failed log-ins to this account')]).toEqual([429, 429, true]);
  });

  it('sends security headers with every page, and a 404 page for unknown addresses', async () => {
    for (const path of ['/', '/signup', '/login', '/reset', '/no/such/page/here']) {
      const page = await new Browser(service.url).request(path);
      expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(page.headers.get('x-content-type-options')).toBe('nosniff');
      expect(page.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
      expect(page.headers.get('x-frame-options')).toBe('DENY');
      expect(page.html.startsWith('<!doctype html><html lang="en">')).toBe(true);
    }
    expect((await new Browser(service.url).request('/no/such/page/here')).status).toBe(404);
    const escaped = await new Browser(service.url).submit('/signup', '/signup', { username: '<script>x</script>', email: 'e@example.test', password: 'long enough pw' });
    expect(escaped.html).not.toContain('<script>x</script>');
    expect(escaped.html).toContain('&lt;script>x&lt;/script>');
  });
});
