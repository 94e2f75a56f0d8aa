// Changing the e-mail address (issue 24): it asks for the current password (wrong ones count as
// failed log-ins), and a new request voids every earlier link, also when the new address turns
// out to belong to another account: only the newest link can change the address.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RATE_LIMITS } from '../../lib/accountLimits.js';
import { inOneWindow } from '../support/limitWindows.js';
import { linkIn, type Mail, type SmtpInbox } from '../support/smtpInbox.js';
import type { TestService } from './harness.js';
import { loggedInAccount, startServiceWithInbox, stopServiceWithInbox } from './webClient.js';

let service: TestService;
let inbox: SmtpInbox;

beforeAll(async () => ({ service, inbox } = await startServiceWithInbox()));
afterAll(() => stopServiceWithInbox({ service, inbox }));

const PASSWORD = 'correct horse'; // the harness's accounts
const pathIn = (mail: Mail) => {
  const url = new URL(linkIn(mail));
  return url.pathname + url.search;
};
const addressOf = async (userId: number) => (await service.db('users').where({ id: userId }).first('email', 'pending_email')) as { email: string; pending_email: string | null };

describe('changing the e-mail address', () => {
  it('voids the earlier links when a new change is asked for', async () => {
    const me = await loggedInAccount(service);
    const original = `${me.username}@example.com`;
    const first = `${me.username}.first@example.test`;
    const second = `${me.username}.second@example.test`;
    expect((await me.browser.submit('/settings', '/settings/email', { email: first, password: PASSWORD })).status).toBe(200);
    const firstLink = pathIn(await inbox.mailTo(first, 'Verify your e-mail address'));
    expect((await me.browser.submit('/settings', '/settings/email', { email: second, password: PASSWORD })).status).toBe(200);
    const secondLink = pathIn(await inbox.mailTo(second, 'Verify your e-mail address'));

    const stale = await me.browser.request(firstLink);
    expect([stale.status, stale.html.includes('This link does not work')]).toEqual([400, true]);
    expect(await addressOf(me.userId)).toEqual({ email: original, pending_email: second });
    expect((await me.browser.request(secondLink)).status).toBe(200);
    expect(await addressOf(me.userId)).toEqual({ email: second, pending_email: null });

    // A request for an address another account has voids the earlier link too.
    const third = `${me.username}.third@example.test`;
    await me.browser.submit('/settings', '/settings/email', { email: third, password: PASSWORD });
    const thirdLink = pathIn(await inbox.mailTo(third, 'Verify your e-mail address'));
    const other = await service.newUser();
    await me.browser.submit('/settings', '/settings/email', { email: `${other.username}@example.com`, password: PASSWORD });
    expect((await me.browser.request(thirdLink)).status).toBe(400);
    expect((await addressOf(me.userId)).email).toBe(second);
  });

  it('asks for the current password, keeping the typed address when it is wrong', async () => {
    await inOneWindow(RATE_LIMITS.loginPerKnownAddress.windowMs); // ten failures counted in one window
    const me = await loggedInAccount(service);
    const wanted = `${me.username}.wanted@example.test`;
    const none = await me.browser.submit('/settings', '/settings/email', { email: wanted });
    expect([none.status, none.html.includes('Type your current password')]).toEqual([400, true]);
    const wrong = await me.browser.submit('/settings', '/settings/email', { email: wanted, password: 'not my password' });
    expect([wrong.status, wrong.html.includes('The current password is not right'), wrong.html.includes(`value="${wanted}"`)]).toEqual([401, true, true]);
    expect(await addressOf(me.userId)).toEqual({ email: `${me.username}@example.com`, pending_email: null });
    expect(inbox.mailsTo(wanted)).toEqual([]);
    const right = await me.browser.submit('/settings', '/settings/email', { email: wanted, password: PASSWORD });
    expect([right.status, right.html.includes('waiting for its link to be opened')]).toEqual([200, true]);

    // Wrong passwords count as failed log-ins of the account from this address.
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await me.browser.submit('/settings', '/settings/email', { email: wanted, password: `guess ${i}` })).status);
    expect(statuses).toEqual([...Array(9).fill(401), 429]);
  });
});
