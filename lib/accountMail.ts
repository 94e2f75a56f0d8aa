// What the account mails say. Two of them answer a request that names an address another account
// has (a sign-up, a change of address): the page answered as for any address, and the mail tells
// the address's owner, with no link that would change anything. A mail's first link is the one
// it is for (the outbox's log line and the tests read the first).
import type { MailMessage } from './mail.js';

const IGNORE = 'If you did not ask for this, ignore this message.';

/** The link that finishes a sign-up: the account is made when it is opened. */
export const signupLinkMail = (publicUrl: string, input: { username: string; email: string; token: string }): MailMessage => ({
  to: input.email,
  subject: 'Verify your e-mail address',
  text:
    `Hello ${input.username},\n\nto finish signing up as "${input.username}", confirm that ${input.email} is your address by opening this link within 24 hours:\n\n` +
    `${publicUrl}/verify?token=${input.token}\n\nOnly the newest link we sent works. If you did not sign up, ignore this message: no account is made.\n`,
});

/** The link that verifies an account's (new) address. */
export const verificationMail = (publicUrl: string, input: { username: string; email: string; token: string }): MailMessage => ({
  to: input.email,
  subject: 'Verify your e-mail address',
  text:
    `Hello ${input.username},\n\nplease confirm that ${input.email} is your address by opening this link within 24 hours:\n\n` +
    `${publicUrl}/verify?token=${input.token}\n\nOnly the newest link we sent works. ${IGNORE}\n`,
});

export const resetMail = (publicUrl: string, input: { username: string; email: string; token: string }): MailMessage => ({
  to: input.email,
  subject: 'Reset your password',
  text:
    `Hello ${input.username},\n\nsomeone (hopefully you) asked to reset the password of your account. Choose a new one within an hour here:\n\n` +
    `${publicUrl}/reset/${input.token}\n\nIf you did not ask for this, ignore this message: your password stays as it is.\n`,
});

/** To the owner of an address someone signed up with. */
export const signupOfTakenAddressMail = (publicUrl: string, input: { owner: string; email: string; triedUsername: string }): MailMessage => ({
  to: input.email,
  subject: 'Signing up with your e-mail address',
  text:
    `Hello ${input.owner},\n\nsomeone (hopefully you) tried to sign up as "${input.triedUsername}" with this address, ${input.email}. ` +
    `It is already the address of your account "${input.owner}", and an address belongs to one account only, so no new account was made.\n\n` +
    `Log in: ${publicUrl}/login\nForgot your password? Choose a new one: ${publicUrl}/reset\n\n` +
    `If it was not you, ignore this message: nothing changed.\n`,
});

/** To the owner of an address another account asked to change to. */
export const addressOfAnotherAccountMail = (publicUrl: string, input: { owner: string; email: string; requester: string }): MailMessage => ({
  to: input.email,
  subject: 'Your e-mail address and another account',
  text:
    `Hello ${input.owner},\n\nthe account "${input.requester}" asked to use ${input.email} as its e-mail address. ` +
    `It is the address of your account "${input.owner}", and an address belongs to one account only, so nothing changed.\n\n` +
    `If both accounts are yours, give "${input.owner}" another address first, in its settings:\n\n${publicUrl}/settings\n\nthen ask again from "${input.requester}". ` +
    `If you do not know that account, ignore this message: your account is not affected.\n`,
});
