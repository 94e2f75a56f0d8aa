// The log-in limits (issue 24): only failed attempts count; an account's limit is the account's,
// whichever of its names was typed; failures from addresses the account has never logged in
// from share one limit per account (a guesser with many addresses is slowed to ten guesses a
// quarter of an hour), while an address the account knows counts only its own failures, so
// nobody else's guessing keeps the owner out; every address has its own limit across accounts;
// unknown names are limited exactly like known ones. Each browser here has an address of its
// own (X-Forwarded-For, which the test service trusts).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RATE_LIMITS } from '../../lib/accountLimits.js';
import { inOneWindow } from '../support/limitWindows.js';
import { linkIn, type SmtpInbox } from '../support/smtpInbox.js';
import type { TestService } from './harness.js';
import { Browser, startServiceWithInbox, stopServiceWithInbox } from './webClient.js';

let service: TestService;
let inbox: SmtpInbox;

beforeAll(async () => ({ service, inbox } = await startServiceWithInbox()));
afterAll(() => stopServiceWithInbox({ service, inbox }));
// Each test's attempts within one quarter of an hour's window (the limits' windows are fixed).
beforeEach(() => inOneWindow(RATE_LIMITS.loginPerAccount.windowMs));

const PASSWORD = 'correct horse'; // the harness's accounts
const emailOf = (username: string) => `${username}@example.com`;

/** One log-in through the form: its status (302 in, 401 refused password, 429 limited). */
async function attempt(browser: Browser, login: string, password: string): Promise<number> {
  const answer = await browser.submit('/login', '/login', { login, password });
  if (answer.status === 302) expect((await browser.submit('/settings', '/logout', {})).status).toBe(302);
  return answer.status;
}

/** Failed attempts from as many new addresses. */
async function guesses(login: string, count: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < count; i++) statuses.push(await attempt(new Browser(service.url), login, `guess number ${i}`));
  return statuses;
}

const times = (count: number, status: number) => Array<number>(count).fill(status);

describe('log-in limits', () => {
  it('counts the username and the e-mail address of an account as one account', async () => {
    const { username } = await service.newUser();
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push(await attempt(new Browser(service.url), i % 2 ? username : emailOf(username).toUpperCase(), 'wrong password'));
    expect(statuses).toEqual(times(10, 401));
    expect(await attempt(new Browser(service.url), username, 'wrong password')).toBe(429);
    expect(await attempt(new Browser(service.url), emailOf(username), 'wrong password')).toBe(429);
  });

  it('charges only failures: a person who logs in and out all day is never refused', async () => {
    const { username } = await service.newUser();
    const browser = new Browser(service.url);
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++) statuses.push(await attempt(browser, i % 2 ? username : emailOf(username), PASSWORD));
    expect(statuses).toEqual(times(25, 302));
  });

  it("never keeps the owner out with someone else's failures, and still slows the guesser", async () => {
    const { username } = await service.newUser();
    const owner = new Browser(service.url);
    expect(await attempt(owner, username, PASSWORD)).toBe(302); // the account knows this address from now on
    expect(await guesses(username, 14)).toEqual([...times(10, 401), ...times(4, 429)]);
    // From anywhere else, even the right password waits now: a guesser with many addresses gets
    // ten tries a quarter of an hour.
    expect(await attempt(new Browser(service.url), username, PASSWORD)).toBe(429);
    // The owner, at their own address, gets in.
    expect(await attempt(owner, username, PASSWORD)).toBe(302);
    expect(await attempt(owner, emailOf(username), PASSWORD)).toBe(302);
  });

  it("limits the owner's own address by its own failures, and each address across accounts", async () => {
    const { username } = await service.newUser();
    const owner = new Browser(service.url);
    expect(await attempt(owner, username, PASSWORD)).toBe(302);
    const own: number[] = [];
    for (let i = 0; i < 11; i++) own.push(await attempt(owner, username, `typo ${i}`));
    expect(own).toEqual([...times(10, 401), 429]);
    expect(await attempt(owner, username, PASSWORD)).toBe(429);

    // One address trying its luck with many accounts: 30 failures a quarter of an hour in all.
    const guesser = new Browser(service.url);
    const statuses: number[] = [];
    for (let account = 0; account < 4; account++) {
      const victim = (await service.newUser()).username;
      for (let i = 0; i < 8; i++) statuses.push(await attempt(guesser, victim, `guess ${i}`));
    }
    expect(statuses).toEqual([...times(30, 401), ...times(2, 429)]);
    expect(await attempt(guesser, (await service.newUser()).username, PASSWORD)).toBe(429);
  });

  it('limits unknown names exactly as known ones, with the same page', async () => {
    const known = (await service.newUser()).username;
    const unknown = `nobody-${Date.now().toString(36)}`;
    const pages: string[] = [];
    for (const login of [known, unknown]) {
      expect(await guesses(login, 10)).toEqual(times(10, 401));
      const refused = await new Browser(service.url).submit('/login', '/login', { login, password: 'one more guess' });
      expect(refused.status).toBe(429);
      pages.push(refused.html.replace(/value="[A-Za-z0-9_-]{43}"/g, '').replaceAll(login, 'NAME'));
    }
    expect(pages[1]).toBe(pages[0]);
  });

  it('lets in the address that chose a new password through the mailed link while the account is being guessed at', async () => {
    const { username } = await service.newUser();
    expect(await guesses(username, 11)).toEqual([...times(10, 401), 429]);
    const phone = new Browser(service.url);
    expect(await attempt(phone, username, PASSWORD)).toBe(429);
    expect((await phone.submit('/reset', '/reset', { email: emailOf(username) })).status).toBe(200);
    const link = new URL(linkIn(await inbox.mailTo(emailOf(username), 'Reset your password'))).pathname;
    expect((await phone.submit(link, link, { password: 'a new password' })).status).toBe(200);
    expect(await attempt(phone, username, 'a new password')).toBe(302);
  });
});
