// The account pages: sign up, verify, log in and out, reset a password. Forms post back to the
// same address; a refusal shows the form again with the message and the status it means. Sign-up
// and reset answer alike whatever the address (their mail goes out after the answer:
// afterAnswer.ts); the limits count the client's address as the rate limits do (IPv6 per /64).
import type Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import { h } from 'preact';
import { AppError } from '../../lib/errors.js';
import { verifyEmailToken } from '../../lib/emailChange.js';
import { logIn } from '../../lib/loginLimits.js';
import { requestPasswordReset, resetPassword } from '../../lib/passwordReset.js';
import { finishSignUp, signUp, signUpFieldErrors } from '../../lib/signups.js';
import { logOut, type WebAccountDeps } from '../../lib/webAccounts.js';
import { addressBucket } from '../clientAddress.js';
import { CheckMailPage, LogInPage, MessagePage, ResetFormPage, ResetRequestPage, SignUpPage } from '../../web/pages/accountPages.js';
import { afterAnswer } from './afterAnswer.js';
import { fields, STATUS, viewerOf } from './forms.js';
import { answerPage } from './pageAnswer.js';
import { csrfToken } from './security.js';
import { sessionTokenOf, setSessionCookie, type WebState } from './session.js';

/** Runs a form's action; an AppError shows the form again with its message. */
async function attempt(ctx: Context, action: () => Promise<void>, again: (error: string) => Parameters<typeof answerPage>[1]): Promise<void> {
  try {
    await action();
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    answerPage(ctx, { ...again(error.message), status: STATUS[error.code] ?? 400 });
  }
}

/** A local path to go on to after logging in; anything else goes to the settings. */
const localPath = (value: string | undefined): string => (value && /^\/(?![/\\])/.test(value) ? value : '/settings');

export function mountAccountRoutes(router: Router, deps: WebAccountDeps, form: Middleware[]): void {
  router.get('/signup', (ctx) => answerPage(ctx, { title: 'Sign up', body: h(SignUpPage, { csrf: csrfToken(ctx) }) }));
  router.post('/signup', ...form, async (ctx) => {
    const { username = '', email = '', password = '' } = fields(ctx);
    // Every field's problem at once, under each field (the password is never sent back).
    const errors = signUpFieldErrors({ username: username.trim(), email: email.trim(), password });
    if (Object.keys(errors).length > 0) return answerPage(ctx, { status: 400, title: 'Sign up', body: h(SignUpPage, { csrf: csrfToken(ctx), username, email, errors }) });
    await attempt(
      ctx,
      async () => {
        afterAnswer(ctx, await signUp(deps, { username: username.trim(), email: email.trim(), password, address: addressBucket(ctx.ip) }));
        answerPage(ctx, { status: 201, title: 'Check your e-mail', body: h(CheckMailPage, { email: email.trim() }) });
      },
      (error) => ({ title: 'Sign up', body: h(SignUpPage, { csrf: csrfToken(ctx), username, email, error }) }),
    );
  });

  router.get('/verify', async (ctx) => {
    const token = typeof ctx.query.token === 'string' ? ctx.query.token : '';
    await attempt(
      ctx,
      async () => {
        const made = await finishSignUp(deps, token);
        if (made) {
          const notice = `Your account ${made.username} is ready, with ${made.email} verified. Log in with the password you chose.`;
          answerPage(ctx, { title: 'Log in', body: h(LogInPage, { csrf: csrfToken(ctx), login: made.username, notice }) });
          return;
        }
        const user = await verifyEmailToken(deps, token);
        answerPage(ctx, {
          title: 'E-mail address verified',
          body: h(MessagePage, {
            heading: 'E-mail address verified',
            message: `${user.email} is verified. Your API keys work from now on.`,
            link: viewerOf(ctx) ? { href: '/settings', text: 'Go to your settings' } : { href: '/login', text: 'Log in' },
          }),
        });
      },
      (error) => ({
        title: 'Link not valid',
        body: h(MessagePage, {
          heading: 'This link does not work',
          message: error,
          link: viewerOf(ctx) ? { href: '/settings', text: 'Send a new one from your settings' } : { href: '/login', text: 'Log in, or sign up again' },
        }),
      }),
    );
  });

  router.get('/login', (ctx) => {
    if (viewerOf(ctx)) return ctx.redirect(localPath(String(ctx.query.next ?? '')));
    answerPage(ctx, { title: 'Log in', body: h(LogInPage, { csrf: csrfToken(ctx), next: typeof ctx.query.next === 'string' ? ctx.query.next : undefined }) });
  });
  router.post('/login', ...form, async (ctx) => {
    const { login = '', password = '', next } = fields(ctx);
    await attempt(
      ctx,
      async () => {
        const session = await logIn(deps, { login, password, address: addressBucket(ctx.ip) });
        await logOut(deps.web, sessionTokenOf(ctx)); // a log-in never keeps an earlier session's token
        setSessionCookie(ctx, session.token);
        ctx.redirect(localPath(next));
      },
      (error) => ({ title: 'Log in', body: h(LogInPage, { csrf: csrfToken(ctx), login, next, error }) }),
    );
  });
  router.post('/logout', ...form, async (ctx) => {
    await logOut(deps.web, sessionTokenOf(ctx));
    setSessionCookie(ctx, null);
    ctx.redirect('/');
  });

  router.get('/reset', (ctx) => answerPage(ctx, { title: 'Reset your password', body: h(ResetRequestPage, { csrf: csrfToken(ctx) }) }));
  router.post('/reset', ...form, async (ctx) => {
    const { email = '' } = fields(ctx);
    await attempt(
      ctx,
      async () => {
        afterAnswer(ctx, await requestPasswordReset(deps, { email, address: addressBucket(ctx.ip) }));
        answerPage(ctx, { title: 'Reset your password', body: h(ResetRequestPage, { csrf: csrfToken(ctx), sent: true }) });
      },
      (error) => ({ title: 'Reset your password', body: h(ResetRequestPage, { csrf: csrfToken(ctx), error }) }),
    );
  });
  router.get('/reset/:token', (ctx) =>
    answerPage(ctx, { title: 'Choose a new password', body: h(ResetFormPage, { csrf: csrfToken(ctx), token: ctx.params.token ?? '' }) }),
  );
  router.post('/reset/:token', ...form, async (ctx) => {
    const token = ctx.params.token ?? '';
    await attempt(
      ctx,
      async () => {
        await resetPassword(deps, { token, password: fields(ctx).password ?? '', address: addressBucket(ctx.ip) });
        setSessionCookie(ctx, null);
        delete (ctx.state as WebState).viewer;
        answerPage(ctx, { title: 'Log in', body: h(LogInPage, { csrf: csrfToken(ctx), notice: 'Your password is changed, and every session of your account ended. Log in with the new one.' }) });
      },
      (error) => ({ title: 'Choose a new password', body: h(ResetFormPage, { csrf: csrfToken(ctx), token, error }) }),
    );
  });
}
