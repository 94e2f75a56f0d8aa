// Whether an e-mail address belongs to an account cannot be told from the web pages (issue 24):
// sign-up and the change of address answer the same for a taken address as for a free one (its
// owner gets a mail instead of a link), /reset limits every typed address alike, and each of
// them answers before any mail is sent, so the time of the answer says nothing either. Proved by
// construction, not by timing: the local SMTP server holds every message unanswered while the
// pages answer (on a service that sent its mail first, they would wait).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RATE_LIMITS } from '../../lib/accountLimits.js';
import { inOneWindow } from '../support/limitWindows.js';
import { linkIn, type Mail, type SmtpInbox } from '../support/smtpInbox.js';
import type { TestService } from './harness.js';
import { Browser, loggedInAccount, startServiceWithInbox, stopServiceWithInbox } from './webClient.js';

let service: TestService;
let inbox: SmtpInbox;

beforeAll(async () => ({ service, inbox } = await startServiceWithInbox()));
afterAll(() => stopServiceWithInbox({ service, inbox }));

let counter = 0;
const newName = () => `enum${Date.now().toString(36)}${counter++}`;
const emailOf = (username: string) => `${username}@example.com`; // the harness's accounts
const pathIn = (mail: Mail) => {
  const url = new URL(linkIn(mail));
  return url.pathname + url.search;
};
/** A page with the given address (in any case) and the form token written out of it, to compare two answers. */
const normalised = (html: string, address: string) =>
  html.replace(/value="[A-Za-z0-9_-]{43}"/g, 'value="TOKEN"').replace(new RegExp(address.replace(/[.+]/g, '\\$&'), 'gi'), 'ADDRESS');
const cookieNames = (browser: Browser) => browser.lastSetCookies.map((line) => line.split('=')[0]).sort();

/** The answer, or a failure when it does not come within 5 s (it waited for a mail the SMTP server holds). */
async function answeredWithin<T>(answer: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error('the page waited for its mail to be sent')), 5_000);
  });
  try {
    return await Promise.race([answer, late]);
  } finally {
    clearTimeout(timer);
  }
}

describe('e-mail addresses cannot be told from the pages', () => {
  it("answers a sign-up with a taken address as any other, and mails the address's owner instead", async () => {
    const owner = await service.newUser();
    const fresh = newName();
    const freshEmail = `${fresh}@example.test`;
    const taken = newName();
    const freshBrowser = new Browser(service.url);
    const takenBrowser = new Browser(service.url);
    const freshAnswer = await freshBrowser.submit('/signup', '/signup', { username: fresh, email: freshEmail, password: 'long enough pw' });
    const takenAnswer = await takenBrowser.submit('/signup', '/signup', { username: taken, email: emailOf(owner.username).toUpperCase(), password: 'long enough pw' });
    expect(takenAnswer.status).toBe(freshAnswer.status);
    expect(normalised(takenAnswer.html, emailOf(owner.username))).toBe(normalised(freshAnswer.html, freshEmail));
    expect(cookieNames(takenBrowser)).toEqual(cookieNames(freshBrowser));

    // The owner hears of it, with the way to log in or to choose a new password; no link to make an account.
    const notice = await inbox.mailTo(emailOf(owner.username), 'Signing up with your e-mail address');
    expect(notice.text).toContain(owner.username);
    expect(notice.text).toContain(`${service.url}/login`);
    expect(notice.text).toContain(`${service.url}/reset`);
    expect(notice.text).not.toContain('/verify');
    expect(inbox.mailsTo(emailOf(owner.username)).map((mail) => mail.subject)).toEqual(['Signing up with your e-mail address']);
    expect(await service.db('users').whereRaw('lower(username) = lower(?)', [taken]).first()).toBeUndefined();

    // Both usernames are held while their sign-ups wait, so a second try tells nothing either.
    for (const username of [fresh, taken]) {
      const again = await new Browser(service.url).submit('/signup', '/signup', { username, email: `${newName()}@example.test`, password: 'long enough pw' });
      expect([username, again.status, again.html.includes('already taken')]).toEqual([username, 409, true]);
    }

    // The new address's link makes the account.
    const made = await new Browser(service.url).request(pathIn(await inbox.mailTo(freshEmail, 'Verify your e-mail address')));
    expect(made.status).toBe(200);
    expect(await service.db('users').where({ username: fresh }).first('email', 'email_verified')).toEqual({ email: freshEmail, email_verified: true });
  });

  it("answers a change to another account's address as any other, and mails that address's owner", async () => {
    const me = await loggedInAccount(service);
    const other = await service.newUser();
    const freeEmail = `${me.username}.new@example.test`;
    const free = await me.browser.submit('/settings', '/settings/email', { email: freeEmail, password: 'correct horse' });
    const taken = await me.browser.submit('/settings', '/settings/email', { email: emailOf(other.username), password: 'correct horse' });
    expect(taken.status).toBe(free.status);
    expect(normalised(taken.html, emailOf(other.username))).toBe(normalised(free.html, freeEmail));

    const notice = await inbox.mailTo(emailOf(other.username), 'Your e-mail address and another account');
    expect(notice.text).toContain(me.username);
    expect(notice.text).not.toContain('/verify');
    expect(inbox.mailsTo(emailOf(other.username)).map((mail) => mail.subject)).toEqual(['Your e-mail address and another account']);
    expect(await service.db('users').where({ id: other.userId }).first('email')).toEqual({ email: emailOf(other.username) });
    expect(await service.db('users').where({ id: me.userId }).first('email')).toEqual({ email: emailOf(me.username) });
  });

  it('limits reset links for every typed address alike, whether an account has it or not', async () => {
    const known = emailOf((await service.newUser()).username);
    const unknown = `nobody-${newName()}@example.test`;
    await inOneWindow(RATE_LIMITS.resetPerEmail.windowMs);
    const answers = new Map<string, { statuses: number[]; last: string }>();
    for (const email of [known, unknown]) {
      const statuses: number[] = [];
      let last = '';
      for (let i = 0; i < 4; i++) {
        const answer = await new Browser(service.url).submit('/reset', '/reset', { email });
        statuses.push(answer.status);
        last = normalised(answer.html, email);
      }
      answers.set(email, { statuses, last });
    }
    expect(answers.get(known)!.statuses).toEqual([200, 200, 200, 429]);
    expect(answers.get(unknown)).toEqual(answers.get(known));
  });

  it('answers before any mail is sent: reset, sign-up and change of address', async () => {
    const owner = await service.newUser();
    const me = await loggedInAccount(service);
    const fresh = newName();
    const release = inbox.hold();
    try {
      const reset = await answeredWithin(new Browser(service.url).submit('/reset', '/reset', { email: emailOf(owner.username) }));
      expect(reset.status).toBe(200);
      const signUp = await answeredWithin(new Browser(service.url).submit('/signup', '/signup', { username: fresh, email: `${fresh}@example.test`, password: 'long enough pw' }));
      expect(signUp.status).toBe(201);
      const takenSignUp = await answeredWithin(new Browser(service.url).submit('/signup', '/signup', { username: newName(), email: emailOf(owner.username), password: 'long enough pw' }));
      expect(takenSignUp.status).toBe(201);
      const change = await answeredWithin(me.browser.submit('/settings', '/settings/email', { email: `${me.username}.moved@example.test`, password: 'correct horse' }));
      expect(change.status).toBe(200);
    } finally {
      release();
    }
    // Sent once the server takes them.
    await inbox.mailTo(emailOf(owner.username), 'Reset your password');
    await inbox.mailTo(`${fresh}@example.test`, 'Verify your e-mail address');
    await inbox.mailTo(emailOf(owner.username), 'Signing up with your e-mail address');
    await inbox.mailTo(`${me.username}.moved@example.test`, 'Verify your e-mail address');
  });
});
