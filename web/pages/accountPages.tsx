// The account pages: sign up, log in, check your mail, verification, password reset, messages.
import { CsrfField, Field, Notice } from './layout.js';

export function SignUpPage(props: { csrf: string; username?: string; email?: string; error?: string; errors?: Partial<Record<'username' | 'email' | 'password', string>> }) {
  const errors = props.errors ?? {};
  const count = Object.keys(errors).length;
  return (
    <section class="card">
      <h1>Sign up</h1>
      <Notice error={props.error ?? (count > 0 ? `Nothing was sent: ${count === 1 ? 'one field needs' : `${count} fields need`} correcting, as said under ${count === 1 ? 'it' : 'each'}.` : undefined)} />
      <form method="post" action="/signup">
        <CsrfField token={props.csrf} />
        <Field label="Username" name="username" value={props.username} autocomplete="username" hint="2 to 40 letters, digits, - or _; your maps' addresses start with it." error={errors.username} />
        <Field label="E-mail address" name="email" type="email" value={props.email} autocomplete="email" hint="We send a link to verify it." error={errors.email} />
        <Field label="Password" name="password" type="password" autocomplete="new-password" hint="At least 8 characters." error={errors.password} />
        <button type="submit">Create account</button>
      </form>
      <p>
        Already have an account? <a href="/login">Log in</a>
      </p>
    </section>
  );
}

/** After a sign-up: the same page whether or not the address has an account (its owner then gets a mail instead of the link). */
export function CheckMailPage(props: { email: string }) {
  return (
    <section class="card">
      <h1>Check your e-mail</h1>
      <p>
        We sent a message to <strong>{props.email}</strong>. Open its link within 24 hours to finish signing up: your account is made
        then, and you log in with the password you chose.
      </p>
      <p>
        No message? Look in the spam folder, or <a href="/signup">sign up again</a> with the same username and address: only the newest
        link works.
      </p>
    </section>
  );
}

export function LogInPage(props: { csrf: string; login?: string; next?: string; error?: string; notice?: string }) {
  return (
    <section class="card">
      <h1>Log in</h1>
      <Notice error={props.error} notice={props.notice} />
      <form method="post" action="/login">
        <CsrfField token={props.csrf} />
        {props.next ? <input type="hidden" name="next" value={props.next} /> : null}
        <Field label="Username or e-mail address" name="login" value={props.login} autocomplete="username" />
        <Field label="Password" name="password" type="password" autocomplete="current-password" />
        <button type="submit">Log in</button>
      </form>
      <p>
        <a href="/reset">Forgot your password?</a> · <a href="/signup">Sign up</a>
      </p>
    </section>
  );
}

export function ResetRequestPage(props: { csrf: string; sent?: boolean; error?: string }) {
  return (
    <section class="card">
      <h1>Reset your password</h1>
      <Notice
        error={props.error}
        notice={props.sent ? 'If an account has this address, we sent it a link to choose a new password. It works for an hour.' : undefined}
      />
      <form method="post" action="/reset">
        <CsrfField token={props.csrf} />
        <Field label="E-mail address" name="email" type="email" autocomplete="email" />
        <button type="submit">Send the link</button>
      </form>
    </section>
  );
}

export function ResetFormPage(props: { csrf: string; token: string; error?: string }) {
  return (
    <section class="card">
      <h1>Choose a new password</h1>
      <Notice error={props.error} />
      <form method="post" action={`/reset/${encodeURIComponent(props.token)}`}>
        <CsrfField token={props.csrf} />
        <Field label="New password" name="password" type="password" autocomplete="new-password" hint="At least 8 characters. Every session of your account ends." />
        <button type="submit">Save the password</button>
      </form>
    </section>
  );
}

/** A page with a heading, a sentence and a way on. */
export function MessagePage(props: { heading: string; message: string; link?: { href: string; text: string } }) {
  return (
    <section class="card">
      <h1>{props.heading}</h1>
      <p>{props.message}</p>
      {props.link ? (
        <p>
          <a href={props.link.href}>{props.link.text}</a>
        </p>
      ) : null}
    </section>
  );
}
